import DecafCapture
import DecafWire

/// A sample capture under `Fixtures/captures/`: a whole protocol session (or a damaged one) in one
/// of the file formats and link types met in the field, made by `SyntheticConversation` so every
/// byte is reproducible, and what a dissector must find in it.
public struct SampleCapture: Sendable {
    /// File name under `captures/`.
    public var name: String
    /// What the sample exercises.
    public var summary: String
    public var bytes: [UInt8]
    /// Frames `decaf dissect` finds with default options, and how many of them are bad.
    public var expectedFrames: Int
    public var expectedErrors: Int
    /// The port the sample's server listens on.
    public static let serverPort = SyntheticConversation.defaultServer.port
    /// When every sample starts: 2023-11-14T22:13:20Z, the vectors' timestamp.
    static let start = CaptureTime(seconds: Int64(FrameRecipe.timestamp), nanoseconds: 0)

    public static let all: [SampleCapture] = [
        SampleCapture(name: "session-ethernet.pcap", summary: "a whole session on Ethernet (tshark -i lo): pcap, little-endian, microseconds",
                      bytes: CaptureWriter.pcap(session(.ethernet).records, linkType: .ethernet),
                      expectedFrames: sessionFrames.count, expectedErrors: 0),
        SampleCapture(name: "session-any.pcap", summary: "the session as tcpdump -i any records it: Linux cooked capture (SLL)",
                      bytes: CaptureWriter.pcap(session(.linuxSLL).records, linkType: .linuxSLL),
                      expectedFrames: sessionFrames.count, expectedErrors: 0),
        SampleCapture(name: "session-any.pcapng", summary: "the session as tshark -i any records it: pcapng, Linux cooked capture v2 (SLL2)",
                      bytes: CaptureWriter.pcapngSection(session(.linuxSLL2).records, linkType: .linuxSLL2),
                      expectedFrames: sessionFrames.count, expectedErrors: 0),
        SampleCapture(name: "session-ipv6-null-big-endian.pcap", summary: "IPv6 over BSD loopback (NULL, as macOS lo0): pcap, big-endian, nanoseconds",
                      bytes: CaptureWriter.pcap(session(.null, ipv6: true).records, linkType: .null, byteOrder: .bigEndian, nanoseconds: true),
                      expectedFrames: sessionFrames.count, expectedErrors: 0),
        SampleCapture(name: "two-sections.pcapng", summary: "two pcapng sections of different byte order: LOOP over IPv4 (little-endian), then RAW IPv6 (big-endian)",
                      bytes: CaptureWriter.pcapngSection(session(.loop).records, linkType: .loop)
                          + CaptureWriter.pcapngSection(session(.raw, ipv6: true, clientPort: 50_001).records, linkType: .raw, byteOrder: .bigEndian),
                      expectedFrames: 2 * sessionFrames.count, expectedErrors: 0),
        SampleCapture(name: "split-coalesced.pcapng", summary: "802.1Q-tagged Ethernet; frames split across segments and several frames in one segment",
                      bytes: CaptureWriter.pcapngSection(splitAndCoalesced().records, linkType: .ethernet),
                      expectedFrames: sessionFrames.count, expectedErrors: 0),
        SampleCapture(name: "reordered-retransmitted.pcap", summary: "segments out of order and retransmitted; sequence numbers wrap past 2^32",
                      bytes: CaptureWriter.pcap(reorderedAndRetransmitted().records, linkType: .ethernet),
                      expectedFrames: sessionFrames.count, expectedErrors: 0),
        SampleCapture(name: "damaged.pcap", summary: "a bad checksum and garbage between frames (resynchronised), a packet cut by the snapshot length (a gap), and an HTTP connection that is ignored",
                      bytes: CaptureWriter.pcap(damaged(), linkType: .ethernet),
                      expectedFrames: 5, expectedErrors: 1),
        SampleCapture(name: "cut-short.pcapng", summary: "a capture file cut in the middle of a block: an error with its file offset, after the frames before it",
                      bytes: Array(CaptureWriter.pcapngSection(session(.ethernet, closing: false).records, linkType: .ethernet).dropLast(30)),
                      expectedFrames: sessionFrames.count - 1, expectedErrors: 0),
    ]

    /// The frames of the sample session, in order: handshake, a text message with its ACK and read
    /// receipt, a compressed message, a heartbeat, and a message with nested fields.
    public static let sessionFrames: [(direction: TCPDirection, bytes: [UInt8])] = {
        var encoder = FrameEncoder()
        let features: FeatureFlags = [.basic, .compression, .readReceipt]
        func header(_ type: MessageType, _ category: SequenceCategory, _ counter: UInt32, compress: CompressType = .none) -> FrameHeader {
            FrameHeader(messageType: type, sequence: SequenceNumber(category: category, counter: counter),
                        timestamp: FrameRecipe.timestamp, sessionID: FrameRecipe.session, compressType: compress)
        }
        func frame(_ header: FrameHeader, _ fields: [TLVField] = []) -> [UInt8] { encoder.encode(header, fields: fields) }
        let longText = String(repeating: "Decaf compresses long chat messages. ", count: 16)
        let nested = TLVField.container([
            TLVField(tag: .text, text: "photo from the trip"),
            TLVField.container([TLVField(tag: .image, bytes: [0x89, 0x50, 0x4E, 0x47]), TLVField(tag: .location, text: "48.8584,2.2945")]),
        ])
        return [
            (.clientToServer, frame(header(.control, .control, 1), [VersionRequest(version: .v1_0, features: features).field])),
            (.serverToClient, frame(header(.ack, .control, 1))),
            (.serverToClient, frame(header(.control, .control, 1), [VersionResponse(version: .v1_0, features: features).field])),
            (.clientToServer, frame(header(.ack, .control, 1))),
            (.clientToServer, frame(header(.data, .normal, 1), [TLVField(tag: .text, text: "hello")])),
            (.serverToClient, frame(header(.ack, .normal, 1))),
            (.serverToClient, frame(header(.readReceipt, .normal, 1), [ReadReceipt(sequence: SequenceNumber(category: .normal, counter: 1)).field])),
            (.clientToServer, frame(header(.ack, .normal, 1))),
            (.clientToServer, frame(header(.data, .normal, 2, compress: .zlib), [TLVField(tag: .text, text: longText)])),
            (.serverToClient, frame(header(.ack, .normal, 2))),
            (.clientToServer, frame(header(.heartbeat, .heartbeat, 1))),
            (.serverToClient, frame(header(.ack, .heartbeat, 1))),
            (.clientToServer, frame(header(.data, .normal, 3), [nested])),
            (.serverToClient, frame(header(.ack, .normal, 3))),
        ]
    }()

    private static func endpoints(ipv6: Bool, clientPort: UInt16) -> (TCPEndpoint, TCPEndpoint) {
        let client = ipv6 ? IPAddress([UInt8](repeating: 0, count: 15) + [1]) : SyntheticConversation.defaultClient.address
        let server = ipv6 ? IPAddress([0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [2]) : SyntheticConversation.defaultServer.address
        return (TCPEndpoint(address: client, port: clientPort), TCPEndpoint(address: server, port: serverPort))
    }

    private static func conversation(_ linkType: LinkType, ipv6: Bool = false, clientPort: UInt16 = SyntheticConversation.defaultClient.port, clientISN: UInt32 = 0x1000_0000) -> SyntheticConversation {
        let (client, server) = endpoints(ipv6: ipv6, clientPort: clientPort)
        return SyntheticConversation(client: client, server: server, linkType: linkType, start: start, clientISN: clientISN)
    }

    /// The session, one segment per frame, opened and (unless `closing` is false) closed.
    public static func session(_ linkType: LinkType, ipv6: Bool = false, clientPort: UInt16 = SyntheticConversation.defaultClient.port, closing: Bool = true) -> SyntheticConversation {
        var tcp = conversation(linkType, ipv6: ipv6, clientPort: clientPort)
        tcp.handshake()
        for (direction, bytes) in sessionFrames { tcp.send(bytes, direction) }
        if closing { tcp.close() }
        return tcp
    }

    /// Frames in a row from one side travel together, in one segment or (every other time) cut
    /// inside the second frame; a frame alone is cut in four.
    private static func splitAndCoalesced() -> SyntheticConversation {
        var tcp = conversation(.ethernet)
        tcp.vlan = 100
        tcp.handshake()
        var index = 0
        var runs = 0
        while index < sessionFrames.count {
            let direction = sessionFrames[index].direction
            var run = [sessionFrames[index].bytes]
            while index + run.count < sessionFrames.count, sessionFrames[index + run.count].direction == direction {
                run.append(sessionFrames[index + run.count].bytes)
            }
            if run.count == 1 {
                tcp.send(run[0], direction, sizes: [3, 11, 20])
            } else {
                runs += 1
                tcp.send(run.flatMap { $0 }, direction, sizes: runs % 2 == 0 ? [run[0].count + 5] : [])
            }
            index += run.count
        }
        tcp.close()
        return tcp
    }

    private static func reorderedAndRetransmitted() -> SyntheticConversation {
        var tcp = conversation(.ethernet, clientISN: 0xFFFF_FF00)
        tcp.handshake()
        for (index, (direction, bytes)) in sessionFrames.enumerated() {
            if index % 2 == 0 && bytes.count >= 30 {
                tcp.send(bytes, direction, sizes: [10, 10], order: [2, 0, 1], retransmit: [0])
            } else {
                tcp.send(bytes, direction, retransmit: index % 3 == 0 ? [0] : [])
            }
        }
        tcp.close()
        return tcp
    }

    /// Connection 1: a frame with a bad checksum, then garbage before the next frame. Connection 2:
    /// a packet cut short by the capture, so its frame is lost in a gap and decoding resumes at
    /// the next frame. Connection 3: HTTP, not the protocol.
    private static func damaged() -> [CaptureRecord] {
        let frames = sessionFrames.map(\.bytes)
        var first = conversation(.ethernet)
        first.handshake()
        first.send(frames[0], .clientToServer)
        var badChecksum = frames[4]
        badChecksum[FrameHeader.Field.checksum.offset] ^= 0xFF
        first.send(badChecksum, .clientToServer)
        first.send(Array("garbage".utf8) + frames[8], .clientToServer)
        first.close()

        var second = conversation(.ethernet, clientPort: 50_002)
        second.handshake()
        second.send(frames[4], .clientToServer)
        second.send(frames[8], .clientToServer)
        second.truncateLastPacket(to: 54 + 40)
        second.send(frames[12], .clientToServer)
        second.close()

        var http = conversation(.ethernet, clientPort: 50_003)
        http.handshake()
        http.send(Array("GET / HTTP/1.1\r\nHost: example\r\n\r\n".utf8), .clientToServer)
        http.close()
        return first.records + second.records + http.records
    }
}
