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

    /// What the plugin's `decaf.summary` says of a frame, computed from Decaf's own dissection.
    static func summary(_ record: FrameRecord) -> String? {
        guard let header = record.header else { return nil }
        var tags: [String] = []
        func walk(_ fields: [TLVElement]) {
            for field in fields {
                tags.append(Hex.format(field.tag.rawValue, width: 4).dropFirst(2).lowercased())
                if field.isContainer { walk(record.visible(field.children)) }
            }
        }
        walk(record.fields ?? [])
        let status = record.computedChecksum.map { $0 == header.checksum ? "correct" : "mismatch" } ?? "unchecked"
        let error = record.error.map { " error=\($0.code.name)(\($0.requirement.rawValue))@\($0.offset)" } ?? ""
        return "type=\(header.messageType.rawValue) seq=\(Hex.word(header.sequence.rawValue).dropFirst(2).lowercased()) "
            + "session=\(Hex.format(header.sessionID.rawValue, width: 4).dropFirst(2).lowercased()) length=\(header.bodyLength) "
            + "checksum=\(status) tags=\(tags.joined(separator: ","))" + error
    }

    /// The summaries tshark with the plugin gives, by packet number (frames completed by one
    /// packet joined with commas).
    static func tsharkSummaries(_ path: String) async throws -> [Int: String] {
        let run = try await Tshark.run(["-o", "tcp.reassemble_out_of_order:TRUE", "-X", "lua_script:\(plugin.path)", "-r", path,
                                  "-T", "fields", "-e", "frame.number", "-e", "decaf.summary"])
        #expect(!run.error.contains("Lua:"), "the plugin failed: \(run.error)")
        var seen: [Int: String] = [:]
        for line in run.output.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            if columns.count == 2, !columns[1].isEmpty, let number = Int(columns[0]) { seen[number] = String(columns[1]) }
        }
        return seen
    }

    /// What Decaf's own dissection of `frames` says the summaries are, by the packet that completed
    /// each frame. A frame cut short by the end of the capture is left out: Wireshark waits for the
    /// rest of a PDU and never shows it.
    static func expectedSummaries(_ frames: [CapturedFrame]) -> [Int: String] {
        var expected: [Int: String] = [:]
        for frame in frames where frame.record.error?.code != .truncatedFrame {
            guard let summary = summary(frame.record) else { continue }
            let packet = frame.completedBy
            expected[packet] = expected[packet].map { $0 + "," + summary } ?? summary
        }
        return expected
    }

    @Test("tshark with the plugin finds the frames and fields `decaf dissect --json` finds",
          arguments: SampleCapture.all.map(\.name))
    func agreesWithDissect(_ name: String) async throws {
        let sample = try #require(SampleCapture.all.first { $0.name == name })
        var seen = try await Self.tsharkSummaries(FixturePaths.fixtures.appending(path: "captures/\(name)").path)
        // Wireshark cannot reassemble past bytes the capture lost; compare the connection without a gap.
        let expected = Self.expectedSummaries(CaptureDissection(sample.bytes).frames.filter { name != "damaged.pcap" || $0.connection.index == 1 })
        if name == "damaged.pcap" { seen = seen.filter { $0.key < 10 } }
        #expect(!expected.isEmpty)
        #expect(seen == expected)
    }

    /// Every golden frame vector on a connection of its own, in one capture: the plugin must name
    /// each frame's fields, checksum status and first error (code, requirement, offset) as Decaf does.
    @Test("tshark with the plugin reads every golden vector as decaf dissect does, errors included")
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
        let capture = CaptureWriter.pcap(records, linkType: .ethernet)
        let path = FileManager.default.temporaryDirectory.appending(path: "decaf-vectors-\(ProcessInfo.processInfo.processIdentifier).pcap")
        try Data(capture).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let seen = try await Self.tsharkSummaries(path.path)
        let expected = Self.expectedSummaries(CaptureDissection(capture).frames)
        #expect(expected.count > 150)
        let differing = Set(seen.keys).union(expected.keys).sorted().filter { seen[$0] != expected[$0] }
        #expect(differing.map { "packet \($0): tshark \(seen[$0] ?? "nothing"), decaf \(expected[$0] ?? "nothing")" } == [])
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
