import DecafCapture
import DecafDissect
import DecafTestSupport
import DecafVectors
import DecafWire
import Foundation
import Testing

@Suite("The Wireshark plugin under tshark", .enabled(if: ExternalTool.tshark.isInstalled, Comment(rawValue: ExternalTool.tshark.skipReason)))
struct WiresharkPluginTests {
    static let plugin: URL = {
        let url = FileManager.default.temporaryDirectory.appending(path: "decaf-\(ProcessInfo.processInfo.processIdentifier).lua")
        try? Data(WiresharkPlugin.lua(version: "test").utf8).write(to: url)
        return url
    }()

    /// What a dissector shows of a capture: frames by the packet that completed them (where
    /// Wireshark shows them), and bytes skipped at the end of a stream, by stream.
    struct ShownCapture {
        var frames: [Int: [ShownFrame]] = [:]
        var skippedAtEnd: [String: Int] = [:]
    }

    /// What tshark with `plugin` shows of `capture`, frame by frame.
    static func wiresharkFrames(_ capture: String, plugin: URL = plugin, packets: (Int) -> Bool = { _ in true }) async throws -> ShownCapture {
        let run = try await Tshark.run(["-o", "tcp.reassemble_out_of_order:TRUE", "-X", "lua_script:\(plugin.path)", "-r", capture, "-T", "pdml"])
        #expect(!run.error.contains("Lua:"), "the plugin failed: \(run.error)")
        var shown = ShownCapture()
        for (index, packet) in PDMLNode.packets(run.output).enumerated() where packets(index + 1) {
            let (frames, skippedAfter) = ShownFrame.frames(inPacket: packet)
            if !frames.isEmpty { shown.frames[index + 1] = frames }
            let stream = ShownFrame.stream(ofPacket: packet)
            // Bytes skipped before a later frame of the stream go with that frame.
            if !frames.isEmpty { shown.skippedAtEnd[stream] = nil }
            if let skippedAfter { shown.skippedAtEnd[stream, default: 0] += skippedAfter }
        }
        return shown
    }

    /// A `--json` record's kind and where it comes from.
    private struct Note: Decodable {
        var record: String
        var connection: ConnectionJSON?
        var direction: TCPDirection?
        var skipped: Int?
        var resumedAt: Int?
    }

    /// What `decaf dissect --json --port P` shows of `capture` (the connections in `connections`,
    /// or all), P being the plugin's port. Where the two tools cut bytes differently, Wireshark's
    /// way is taken: a frame cut short by the end of the capture, and fewer than 4 bytes left at
    /// the end, are left out (Wireshark waits for the rest of a PDU, or for a whole magic, and never
    /// shows them); a frame refused from its header is its header alone, with the rest skipped
    /// (Decaf counts the refused header in the bytes it skips); bytes without the magic are
    /// skipped bytes, not a frame.
    static func decafFrames(_ capture: String, connections: Set<Int>? = nil) async throws -> ShownCapture {
        let run = try await DecafProcess.run(["dissect", "--json", "--port", "\(SampleCapture.serverPort)", capture])
        #expect(!run.output.isEmpty, "decaf dissect --json printed nothing: \(run.error)")
        let decoder = JSONDecoder()
        var shown = ShownCapture()
        var skipped: [String: Int] = [:]
        var refusedHeader: [String: Int] = [:]
        for line in run.output.split(separator: "\n") {
            let data = Data(line.utf8)
            let note = try decoder.decode(Note.self, from: data)
            guard let connection = note.connection, let direction = note.direction,
                  connections?.contains(connection.index) ?? true else { continue }
            let stream = direction == .clientToServer ? "\(endpoint(connection.client)) > \(endpoint(connection.server))"
                : "\(endpoint(connection.server)) > \(endpoint(connection.client))"
            if note.record == "resync", let count = note.skipped.map({ $0 - (refusedHeader.removeValue(forKey: stream) ?? 0) }) {
                if note.resumedAt != nil { skipped[stream] = count } else if count >= 4 { shown.skippedAtEnd[stream, default: 0] += count }
            }
            guard note.record == "frame" else { continue }
            let record = try decoder.decode(FrameRecordJSON.self, from: data)
            // Bytes without the magic: Wireshark shows them skipped, which the resync after them counts.
            if record.header == nil, record.error?.code == ErrorCode.badMagic.rawValue { continue }
            refusedHeader[stream] = record.error.map { $0.offset < FrameHeader.Field.checksum.offset } == true ? record.length : nil
            defer { skipped[stream] = nil }
            guard record.error?.code != ErrorCode.truncatedFrame.rawValue, let packet = record.packet else { continue }
            shown.frames[packet, default: []].append(ShownFrame(record, skipped: skipped[stream]))
        }
        return shown
    }

    /// "address port" of an `address:port` (IPv6 in brackets), as tshark's fields give them.
    private static func endpoint(_ text: String) -> String {
        let colon = text.lastIndex(of: ":") ?? text.endIndex
        let address = text[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return "\(address) \(text[colon...].dropFirst())"
    }

    /// Each packet where the two readings differ (the first field that differs in each frame, or
    /// the errors), and each stream whose last skipped bytes differ.
    static func differences(wireshark: ShownCapture, decaf: ShownCapture) -> [String] {
        var lines: [String] = []
        for packet in Set(wireshark.frames.keys).union(decaf.frames.keys).sorted() {
            let seen = wireshark.frames[packet] ?? [], expected = decaf.frames[packet] ?? []
            guard seen.count == expected.count else {
                lines.append("packet \(packet): tshark shows \(seen.count) frame(s), decaf dissect \(expected.count)")
                continue
            }
            for (index, (shown, wanted)) in zip(seen, expected).enumerated() where shown != wanted {
                let place = "packet \(packet), frame \(index + 1)"
                let described = { (fields: [ShownField], index: Int) in fields.indices.contains(index) ? fields[index].description : "nothing" }
                let count = max(shown.fields.count, wanted.fields.count)
                if let first = (0..<count).first(where: { described(shown.fields, $0) != described(wanted.fields, $0) }) {
                    lines.append("\(place): tshark \(described(shown.fields, first)); decaf \(described(wanted.fields, first))")
                }
                if shown.experts != wanted.experts {
                    lines.append("\(place): tshark's errors \(shown.experts); decaf \(wanted.experts)")
                }
            }
        }
        for stream in Set(wireshark.skippedAtEnd.keys).union(decaf.skippedAtEnd.keys).sorted()
        where wireshark.skippedAtEnd[stream] != decaf.skippedAtEnd[stream] {
            lines.append("\(stream): tshark skips \(wireshark.skippedAtEnd[stream] ?? 0) byte(s) at the end, decaf \(decaf.skippedAtEnd[stream] ?? 0)")
        }
        return lines
    }

    /// The sample capture `name`, and the part of it Wireshark can follow: it cannot reassemble
    /// past bytes the capture lost, so of `damaged.pcap` only the connection without a gap.
    static func sample(_ name: String) -> (path: String, connections: Set<Int>?, packets: (Int) -> Bool) {
        let path = FixturePaths.fixtures.appending(path: "captures/\(name)").path
        return name == "damaged.pcap" ? (path, [1], { $0 < 10 }) : (path, nil, { _ in true })
    }

    @Test("tshark with the plugin shows every field of every frame as `decaf dissect --json` does",
          arguments: SampleCapture.all.map(\.name))
    func agreesWithDissect(_ name: String) async throws {
        let (path, connections, packets) = Self.sample(name)
        let seen = try await Self.wiresharkFrames(path, packets: packets)
        let expected = try await Self.decafFrames(path, connections: connections)
        #expect(!expected.frames.isEmpty)
        #expect(Self.differences(wireshark: seen, decaf: expected) == [])
    }

    /// Every golden frame vector on a connection of its own, in one capture: the plugin must show
    /// each frame's fields (names, values, offsets, lengths), checksum status and first error
    /// (code, requirement, offset, why) as Decaf does.
    @Test("tshark with the plugin shows every golden vector field by field as decaf dissect does, errors included")
    func agreesOnEveryVector() async throws {
        var records: [CaptureRecord] = []
        var time = CaptureTime(seconds: 1_700_000_000, nanoseconds: 0)
        // Wireshark's inflater stops at the end of the first zlib stream and says nothing of what
        // follows it; the plugin finds trailing bytes by the Adler-32 in the body's last 4 bytes,
        // which a second copy of the same stream repeats. That one vector is beyond it.
        let beyondWireshark: Set<Int> = [541]
        let vectors = FrameVectorFile.all.flatMap(\.groups).filter { $0.options == DecodeOptions() }.flatMap(\.tests)
            .filter { !beyondWireshark.contains($0.tcId) }
        for (index, vector) in vectors.enumerated() {
            let client = TCPEndpoint(address: SyntheticConversation.defaultClient.address, port: UInt16(20_000 + index))
            var conversation = SyntheticConversation(client: client, start: time)
            conversation.handshake()
            conversation.send(vector.bytes, .clientToServer)
            conversation.close()
            records += conversation.records
            time = CaptureTime(seconds: time.seconds + 1, nanoseconds: 0)
        }
        let path = FileManager.default.temporaryDirectory.appending(path: "decaf-vectors-\(ProcessInfo.processInfo.processIdentifier).pcap")
        try Data(CaptureWriter.pcap(records, linkType: .ethernet)).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let seen = try await Self.wiresharkFrames(path.path)
        let expected = try await Self.decafFrames(path.path)
        #expect(expected.frames.values.joined().count > 150)
        #expect(Self.differences(wireshark: seen, decaf: expected) == [])
    }

    /// The comparison is only worth something if it catches a plugin that is wrong in one place.
    @Test("a plugin wrong in a single label, offset, value or requirement is caught", arguments: [
        ("a tag's name", #"[4097] = "TEXT""#, #"[4097] = "TXT""#, "decaf.tlv"),
        ("a TLV length's offset", "item:add(f.tlv_length, range(offset + 2, 4))", "item:add(f.tlv_length, range(offset + 1, 4))", "decaf.tlv.length"),
        ("a header field's offset", "session_id = { offset = 18, size = 2 }", "session_id = { offset = 19, size = 2 }", "decaf.session_id"),
        ("an error's requirement", #"requirement = "CRC-2""#, #"requirement = "CRC-3""#, "decaf.error"),
    ])
    func catchesOneDifference(what: String, original: String, replacement: String, field: String) async throws {
        let lua = WiresharkPlugin.lua(version: "test")
        #expect(lua.contains(original), "the plugin no longer has \(original)")
        let wrong = FileManager.default.temporaryDirectory.appending(path: "decaf-wrong-\(ProcessInfo.processInfo.processIdentifier)-\(field).lua")
        try Data(lua.replacingOccurrences(of: original, with: replacement).utf8).write(to: wrong)
        defer { try? FileManager.default.removeItem(at: wrong) }
        let (path, connections, packets) = Self.sample("damaged.pcap")
        let seen = try await Self.wiresharkFrames(path, plugin: wrong, packets: packets)
        let differences = Self.differences(wireshark: seen, decaf: try await Self.decafFrames(path, connections: connections))
        #expect(differences.contains { $0.contains("tshark \(field) ") }, "\(what): \(differences)")
    }

    @Test("every sample capture, past its gaps too, is dissected without a Lua error; a body the capture cut short is an expert note",
          arguments: ["damaged.pcap", "cut-short.pcapng", "reordered-retransmitted.pcap", "split-coalesced.pcapng"])
    func noLuaError(_ name: String) async throws {
        let path = FixturePaths.fixtures.appending(path: "captures/\(name)").path
        let run = try await Tshark.run(["-X", "lua_script:\(Self.plugin.path)", "-r", path, "-V"])
        #expect(!run.output.contains("Lua Error") && !run.error.contains("Lua"), "\(run.output.components(separatedBy: "\n").filter { $0.contains("Lua") }.prefix(3))")
        if name == "damaged.pcap" { #expect(run.output.contains("the body is cut short: "), "the cut body is said") }
    }

    @Test("a checksum mismatch is an expert error in Wireshark")
    func checksumExpert() async throws {
        let path = FixturePaths.fixtures.appending(path: "captures/damaged.pcap").path
        let run = try await Tshark.run(["-X", "lua_script:\(Self.plugin.path)", "-r", path, "-Y", "decaf.checksum.bad", "-T", "fields", "-e", "frame.number"])
        #expect(run.output.split(separator: "\n") == ["5"])
    }
}

@Suite("The Wireshark plugin's source")
struct WiresharkPluginSourceTests {
    static let lua = WiresharkPlugin.lua(version: "test")

    @Test("errors are named from DecafWire's own table, with the brief's requirements", arguments: [
        ("tlv_truncated", "TLV_TRUNCATED", "TLV-1"), ("tlv_overflow", "TLV_LENGTH_OVERFLOW", "TLV-1"), ("tlv_too_deep", "TLV_TOO_DEEP", "TLV-2"),
        ("tlv_duplicate", "TLV_DUPLICATE_TAG", "TLV-3"), ("zlib_stream", "DECOMPRESSION_FAILED", "ZLIB-1"), ("zlib_limit", "DECOMPRESSION_FAILED", "ZLIB-2"),
        ("checksum", "CHECKSUM_MISMATCH", "CRC-2"), ("body_too_large", "BODY_TOO_LARGE", "FRAME-2"), ("version_minor", "VERSION_UNSUPPORTED", "VER-2"),
    ])
    func errorLabels(key: String, name: String, requirement: String) {
        #expect(Self.lua.contains("\(key) = { name = \"\(name)\", requirement = \"\(requirement)\""))
    }

    @Test("no requirement ID or header offset is written by hand in the dissector's code")
    func nothingByHand() throws {
        let code = try #require(Self.lua.components(separatedBy: "local decaf = Proto(").last)
        #expect(code.range(of: #"\((TLV|ZLIB|CRC|FRAME|VER)-\d\)"#, options: .regularExpression) == nil)
        #expect(code.range(of: #"tvb\((4|5|6|8|12|16|17|18), "#, options: .regularExpression) == nil)
    }
}
