import DecafCapture
import DecafDissect
import DecafTestSupport
import DecafVectors
import DecafWire
import Foundation
import Testing

@Suite("Sample captures and capture formats")
struct SampleCaptureTests {
    static let session = SampleCapture.sessionFrames

    @Test("every sample capture gives the frames it promises", arguments: SampleCapture.all.map(\.name))
    func sample(_ name: String) throws {
        let sample = try #require(SampleCapture.all.first { $0.name == name })
        let dissection = CaptureDissection(sample.bytes)
        #expect(dissection.frames.count == sample.expectedFrames)
        #expect(dissection.frames.filter { !$0.record.isValid }.count == sample.expectedErrors)
    }

    @Test("the committed sample captures are the generated ones", arguments: SampleCapture.all.map(\.name))
    func committed(_ name: String) throws {
        let sample = try #require(SampleCapture.all.first { $0.name == name })
        let data = try Data(contentsOf: FixturePaths.fixtures.appending(path: "captures/\(name)"))
        #expect([UInt8](data) == sample.bytes)
    }

    @Test("whole sessions come back frame for frame, in order, with their directions",
          arguments: ["session-ethernet.pcap", "session-any.pcap", "session-any.pcapng", "session-ipv6-null-big-endian.pcap",
                      "split-coalesced.pcapng", "reordered-retransmitted.pcap"])
    func wholeSession(_ name: String) throws {
        let sample = try #require(SampleCapture.all.first { $0.name == name })
        let frames = CaptureDissection(sample.bytes).frames
        #expect(frames.map(\.record.bytes) == Self.session.map(\.bytes))
        #expect(frames.map(\.direction) == Self.session.map(\.direction))
        #expect(frames.allSatisfy { $0.connection.index == 1 && $0.connection.server.port == SampleCapture.serverPort })
        #expect(frames.map(\.record.index) == Array(1...Self.session.count))
    }

    @Test("packet numbers and capture times follow the packets, in micro- and nanosecond files")
    func packetsAndTimes() throws {
        for name in ["session-ethernet.pcap", "session-ipv6-null-big-endian.pcap", "session-any.pcapng"] {
            let sample = try #require(SampleCapture.all.first { $0.name == name })
            let frames = CaptureDissection(sample.bytes).frames
            // Three handshake packets, then one packet per frame, 1 ms apart.
            #expect(frames.map(\.packets) == (4...17).map { [$0] })
            #expect(frames.first?.time == CaptureTime(seconds: 1_700_000_000, nanoseconds: 3_000_000))
            #expect(frames.last?.time == CaptureTime(seconds: 1_700_000_000, nanoseconds: 16_000_000))
        }
    }

    @Test("split frames name every packet that carried them; coalesced frames share one")
    func splitPackets() throws {
        let sample = try #require(SampleCapture.all.first { $0.name == "split-coalesced.pcapng" })
        let frames = CaptureDissection(sample.bytes).frames
        #expect(frames[0].packets.count == 4)
        #expect(frames.contains { $0.packets.count == 1 } )
        let shared = Dictionary(grouping: frames, by: { $0.packets.last! }).values.filter { $0.count > 1 }
        #expect(!shared.isEmpty)
    }

    @Test("two pcapng sections of different byte order and link type")
    func twoSections() throws {
        let sample = try #require(SampleCapture.all.first { $0.name == "two-sections.pcapng" })
        let frames = CaptureDissection(sample.bytes).frames
        #expect(frames.map(\.connection.index) == Array(repeating: 1, count: 14) + Array(repeating: 2, count: 14))
        #expect(frames[14].connection.client.description == "[::1]:50001")
        #expect(frames.map(\.record.bytes) == (Self.session + Self.session).map(\.bytes))
    }

    @Test("damage in one connection is reported and resynchronised; the other connections go on")
    func damaged() throws {
        let sample = try #require(SampleCapture.all.first { $0.name == "damaged.pcap" })
        let dissection = CaptureDissection(sample.bytes)
        let bad = try #require(dissection.frames.first { !$0.record.isValid })
        #expect(bad.record.error?.code == .checksumMismatch)
        #expect(bad.connection.index == 1 && bad.packets == [5])
        #expect(dissection.events.contains {
            if case let .resynchronized(connection, .clientToServer, 7, _, _) = $0 { connection.index == 1 } else { false }
        })
        #expect(dissection.gaps == [45])
        #expect(dissection.frames.filter { $0.connection.index == 2 }.map(\.record.bytes) == [Self.session[4].bytes, Self.session[12].bytes])
        #expect(dissection.ignoredConnections == 1)
        #expect(dissection.truncatedPackets == 1)
    }

    @Test("a file cut inside a block: the frames before it, then an error with the file offset")
    func cutShort() throws {
        let sample = try #require(SampleCapture.all.first { $0.name == "cut-short.pcapng" })
        let dissection = CaptureDissection(sample.bytes)
        #expect(dissection.frames.count == 13)
        let error = try #require(dissection.captureErrors.first)
        #expect(error.fileOffset == 1992)
        #expect(error.message.contains("ends inside a block"))
        #expect(dissection.events.last.map { if case .captureError = $0 { true } else { false } } == true)
    }

    @Test("every link type Decaf reads, IPv4 and IPv6", arguments: [
        (LinkType.ethernet, false), (.ethernet, true), (.linuxSLL, false), (.linuxSLL2, true), (.null, false), (.null, true),
        (.loop, false), (.loop, true), (.raw, false), (.raw, true), (.ipv4, false), (.ipv6, true),
    ])
    func linkTypes(_ linkType: LinkType, _ ipv6: Bool) {
        let conversation = SampleCapture.session(linkType, ipv6: ipv6)
        for bytes in [CaptureWriter.pcap(conversation.records, linkType: linkType),
                      CaptureWriter.pcapngSection(conversation.records, linkType: linkType, byteOrder: .bigEndian)] {
            #expect(CaptureDissection(bytes).wire == Self.session.map(\.bytes))
        }
    }

    @Test("Ethernet padding after a short IP packet is not taken as payload")
    func ethernetPadding() {
        let conversation = SampleCapture.session(.ethernet)
        let padded = conversation.records.map { record in
            var record = record
            if record.bytes.count < 60 { record.bytes += [UInt8](repeating: 0xEE, count: 60 - record.bytes.count) }
            return record
        }
        #expect(CaptureDissection(CaptureWriter.pcap(padded, linkType: .ethernet)).wire == Self.session.map(\.bytes))
    }

    @Test("a capture that starts mid-stream: ignored by default, decoded from the first magic with --port")
    func midStream() throws {
        let reference = SampleCapture.session(.ethernet)
        var conversation = SyntheticConversation(client: reference.client, server: reference.server, start: CaptureTime(seconds: 1_700_000_000, nanoseconds: 0))
        conversation.handshake()
        for (index, (direction, bytes)) in Self.session.enumerated() {
            conversation.send(bytes, direction, sizes: index == 0 ? [3, 11] : [])
        }
        // The capture begins 14 bytes into the first frame.
        let bytes = CaptureWriter.pcap(Array(conversation.records.dropFirst(5)), linkType: .ethernet)
        let unported = CaptureDissection(bytes)
        #expect(unported.frames.isEmpty && unported.ignoredConnections == 1)
        let dissection = CaptureDissection(bytes, port: SampleCapture.serverPort)
        #expect(dissection.wire == Array(Self.session.dropFirst().map(\.bytes)))
        #expect(dissection.events.contains { if case .joinedMidStream(_, .clientToServer) = $0 { true } else { false } })
        #expect(dissection.events.contains { if case .resynchronized(_, .clientToServer, _, _, _) = $0 { true } else { false } })
    }

    @Test("ports reused by a new SYN start a new connection")
    func portReuse() {
        let first = SampleCapture.session(.ethernet)
        var second = SyntheticConversation(client: first.client, server: first.server, start: CaptureTime(seconds: 1_700_000_100, nanoseconds: 0), clientISN: 0x5000_0000)
        second.handshake()
        for (direction, bytes) in Self.session { second.send(bytes, direction) }
        let frames = CaptureDissection(CaptureWriter.pcap(first.records + second.records, linkType: .ethernet)).frames
        #expect(frames.map(\.connection.index) == Array(repeating: 1, count: 14) + Array(repeating: 2, count: 14))
    }

    @Test("any chunking of the file gives the same frames", arguments: [1, 7, 100, 1 << 20])
    func chunking(_ size: Int) throws {
        let sample = try #require(SampleCapture.all.first { $0.name == "split-coalesced.pcapng" })
        #expect(CaptureDissection(sample.bytes, chunkSize: size).wire == Self.session.map(\.bytes))
    }

    @Test("a capture cut at every offset never crashes and keeps the frames before the cut")
    func everyTruncation() throws {
        let sample = try #require(SampleCapture.all.first { $0.name == "session-ethernet.pcap" })
        var previous = 0
        for length in stride(from: 0, through: sample.bytes.count, by: 3) {
            let dissection = CaptureDissection(Array(sample.bytes.prefix(length)))
            #expect(dissection.frames.count >= previous)
            previous = dissection.frames.count
            #expect(dissection.captureErrors.allSatisfy { $0.fileOffset < length || length < 4 })
        }
        #expect(previous == 14)
    }

    @Test("random corruption of a capture never crashes; at most one capture error, and nothing after it")
    func corruption() throws {
        let sample = try #require(SampleCapture.all.first { $0.name == "split-coalesced.pcapng" })
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<300 {
            var bytes = sample.bytes
            for _ in 0..<4 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            let dissection = CaptureDissection(bytes, chunkSize: 512)
            #expect(dissection.captureErrors.count <= 1)
            if let index = dissection.events.firstIndex(where: { if case .captureError = $0 { true } else { false } }) {
                #expect(index == dissection.events.count - 1)
            }
            #expect(dissection.frames.map(\.record.index) == Array(1..<(dissection.frames.count + 1)))
        }
    }

    @Test("timestamps from a damaged file never overflow: fractions carry into seconds, spans saturate")
    func hostileTimestamps() {
        var record = SampleCapture.session(.ethernet).records[0]
        record.time = CaptureTime(seconds: 0, nanoseconds: 0)
        var pcap = CaptureWriter.pcap([record, record], linkType: .ethernet, nanoseconds: true)
        pcap.replaceSubrange(24..<32, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        var reader = CaptureReader()
        var times: [CaptureTime] = []
        pcap.withUnsafeBytes { bytes in _ = try? reader.read(bytes) { times.append($0.time) } }
        #expect(times.first == CaptureTime(seconds: 0xFFFF_FFFF + 4, nanoseconds: 294_967_295))
        let span = CaptureTime(seconds: .max, nanoseconds: 0).nanoseconds(since: CaptureTime(seconds: 0, nanoseconds: 0))
        #expect(span == .max)
    }

    @Test("a block or record length beyond the limit is refused before anything is buffered")
    func hugeLengths() {
        var pcap = CaptureWriter.pcap(Array(SampleCapture.session(.ethernet).records.prefix(1)), linkType: .ethernet)
        pcap.replaceSubrange(32..<36, with: [0xFF, 0xFF, 0xFF, 0x7F])
        let error = CaptureDissection(pcap).captureErrors.first
        #expect(error?.fileOffset == 24)
        #expect(error?.message.contains("longer than") == true)
        #expect(CaptureDissection([0x0A, 0x0D, 0x0D, 0x0A, 0xFF, 0xFF]).captureErrors.first?.fileOffset == 0)
    }
}
