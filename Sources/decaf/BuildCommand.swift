import ArgumentParser
import DecafCapture
import DecafDissect
import DecafVectors
import DecafWire
import Foundation

/// `decaf build`: craft frames, good or broken on purpose, as hex, bytes, or a capture.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Craft a frame (or rebuild frames from `decaf dissect --json`), optionally broken on purpose.",
        discussion: """
            body_length and checksum are computed unless a damage option sets them. With --from, \
            every frame line of the JSON that `decaf dissect --json` prints is rebuilt from its \
            header fields and body, so `decaf dissect --json x.bin | decaf build --from - --binary` \
            gives back x.bin. --pcap and --pcapng wrap the frames in a TCP conversation (handshake, \
            each frame in its direction, close) between \(SyntheticConversation.defaultClient) and \(SyntheticConversation.defaultServer).
            """
    )

    @Option(name: .customLong("type"), help: ArgumentHelp("msg_type: DATA, HEARTBEAT, ACK, CONTROL, READ_RECEIPT or a number. (default: DATA)", valueName: "type"),
            transform: WireArgument.named("message type"))
    var messageType: MessageType = .data

    @Option(name: .customLong("seq"), help: ArgumentHelp("The sequence number, CATEGORY/COUNTER as frames print it (CONTROL/1) or the whole u32 (0x02000001); default: --category and --counter.", valueName: "seq"),
            transform: WireArgument.sequence)
    var sequence: SequenceNumber?

    @Option(help: ArgumentHelp("Sequence category: NORMAL, HEARTBEAT, CONTROL, MEDIA, BROADCAST or a number (default: the type's own).", valueName: "category"),
            transform: WireArgument.named("sequence category"))
    var category: SequenceCategory?

    @Option(help: ArgumentHelp("Sequence counter (24 bits). (default: 1)", valueName: "n"), transform: IntegerArgument.wire(0...SequenceNumber.maxCounter))
    var counter: UInt32 = 1

    @Option(help: ArgumentHelp("session_id (decimal or 0x hex). (default: 1)", valueName: "n"), transform: IntegerArgument.wire())
    var session: UInt16?

    @Option(name: .customLong("session-uuid"), help: ArgumentHelp("Session UUID; session_id is derived from it (SESSION-1).", valueName: "uuid"), transform: WireArgument.sessionUUID)
    var sessionUUID: SessionID?

    @Option(help: ArgumentHelp("UNIX seconds (default: now).", valueName: "n"), transform: IntegerArgument.wire())
    var timestamp: UInt32?

    @Option(help: ArgumentHelp("Protocol version in the header. (default: 1.0)", valueName: "version"), transform: WireArgument.version)
    var protocolVersion: ProtocolVersion = .v1_0

    @Option(help: ArgumentHelp("A TLV field TAG=VALUE (repeatable): VALUE text, 0x or hex: bytes, u16:N, u32:N, or a JSON array of nested fields, each {\"tag\": NAME or number, and one of \"text\", \"hex\", \"u16\", \"u32\" or \"fields\"}, such as CONTAINER='[{\"tag\":\"TEXT\",\"text\":\"hi\"}]'.", valueName: "tag=value"),
            transform: WireArgument.field)
    var tlv: [TLVField] = []

    @Flag(help: "Compress the body (compress_type ZLIB).")
    var compress = false

    @Flag(name: .customLong("encrypt-flag"), help: "Set encrypt_type AES256 (the body is sent as given).")
    var encryptFlag = false

    @Option(help: ArgumentHelp("Rebuild the frames of this `decaf dissect --json` output ('-' for standard input).", valueName: "file"), transform: PathArgument.parse)
    var from: String?

    @Flag(name: .customLong("bad-crc"), help: "Store a wrong checksum.")
    var badCRC = false

    @Flag(name: .customLong("crc-little-endian"), help: "Store the right checksum little-endian.")
    var crcLittleEndian = false

    @Option(help: ArgumentHelp("Store this body_length (decimal or 0x hex).", valueName: "bytes"), transform: IntegerArgument.wire())
    var length: UInt32?

    @Option(help: ArgumentHelp("Store this magic (decimal or 0x hex).", valueName: "n"), transform: IntegerArgument.wire())
    var magic: UInt32?

    @Option(help: ArgumentHelp("Keep only the first N bytes of each frame.", valueName: "bytes"), transform: IntegerArgument.within(1...Int(UInt32.max)))
    var truncate: Int?

    @Flag(help: "Write the bytes to standard output instead of hex.")
    var binary = false

    @Option(help: ArgumentHelp("Write a pcap capture of the frames to this file.", valueName: "file"), transform: PathArgument.parse)
    var pcap: String?

    @Option(help: ArgumentHelp("Write a pcapng capture of the frames to this file.", valueName: "file"), transform: PathArgument.parse)
    var pcapng: String?

    func validate() throws {
        if [binary, pcap != nil, pcapng != nil].filter({ $0 }).count > 1 {
            throw ValidationError("choose one output: hex (default), --binary, --pcap or --pcapng")
        }
        if from != nil && (!tlv.isEmpty || sequence != nil || session != nil || sessionUUID != nil || timestamp != nil || compress || encryptFlag) {
            throw ValidationError("--from rebuilds frames as dissected; it cannot be combined with header or body options")
        }
        if session != nil && sessionUUID != nil { throw ValidationError("give --session or --session-uuid, not both") }
    }

    private var damage: FrameDamage {
        FrameDamage(badChecksum: badCRC, littleEndianChecksum: crcLittleEndian, bodyLength: length, magic: magic, truncateTo: truncate)
    }

    func run() throws {
        let frames = try (from.map(readFrames) ?? [(TCPDirection.clientToServer, craft())]).map { ($0.0, damage.isNone ? $0.1 : damage.apply(to: $0.1)) }
        if let path = pcap ?? pcapng {
            var conversation = SyntheticConversation(start: CaptureTime(seconds: Int64(Clock.unixSeconds()), nanoseconds: 0))
            conversation.handshake()
            for (direction, bytes) in frames { conversation.send(bytes, direction) }
            conversation.close()
            let capture = pcap != nil ? CaptureWriter.pcap(conversation.records, linkType: .ethernet)
                : CaptureWriter.pcapngSection(conversation.records, linkType: .ethernet)
            guard FileManager.default.createFile(atPath: path, contents: Data(capture)) else { throw InputError("cannot write \(path)") }
            print("wrote \(frames.count) frame(s) in \(conversation.records.count) packets to \(path)")
        } else if binary {
            FileHandle.standardOutput.write(Data(frames.flatMap(\.1)))
        } else {
            frames.forEach { print(Hex.string($0.1)) }
        }
    }

    private func craft() throws -> [UInt8] {
        let header = FrameHeader(
            messageType: messageType,
            sequence: sequence ?? SequenceNumber(category: category ?? .usual(for: messageType), counter: counter),
            timestamp: timestamp ?? Clock.unixSeconds(),
            sessionID: sessionUUID ?? SessionID(rawValue: session ?? 1),
            version: protocolVersion,
            encryptType: encryptFlag ? .aes256 : .none,
            compressType: compress ? .zlib : .none
        )
        var encoder = FrameEncoder()
        return encoder.encode(header, fields: tlv)
    }

    /// The byte chunks of `decaf dissect --json` output, each with its direction. From a capture,
    /// one chunk per frame in capture order. From a stream, the frames and the bytes skipped
    /// between them (resync records), placed by stream offset, so the stream comes back whole;
    /// with damage options, only the frames, each damaged.
    private func readFrames(_ path: String) throws -> [(TCPDirection, [UInt8])] {
        let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
        guard let data else { throw InputError("cannot read \(path)") }
        var chunks: [(direction: TCPDirection?, offset: Int, bytes: [UInt8], isFrame: Bool)] = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            let lineData = Data(line.utf8)
            guard let object = try? JSONSerialization.jsonObject(with: lineData) as? [String: Any] else {
                throw InputError("line \(number + 1) of \(path) is not a JSON object")
            }
            switch object["record"] as? String {
            case "frame":
                guard let record = try? JSONDecoder().decode(FrameRecordJSON.self, from: lineData), let bytes = record.wireBytes else {
                    throw InputError("line \(number + 1) of \(path) is not a frame record of `decaf dissect --json`")
                }
                chunks.append((record.direction, record.streamOffset, bytes, true))
            case "resync":
                if let note = try? JSONDecoder().decode(ResynchronizationJSON.self, from: lineData), let from = note.from,
                   let hex = note.hex, let bytes = Hex.bytes(hex) {
                    chunks.append((nil, from, bytes, false))
                }
            default:
                continue
            }
        }
        guard chunks.contains(where: \.isFrame) else { throw InputError("\(path) holds no frame records") }
        if !damage.isNone || chunks.contains(where: { $0.direction != nil }) {
            return chunks.filter(\.isFrame).map { ($0.direction ?? .clientToServer, $0.bytes) }
        }
        var end = 0
        var stream: [(TCPDirection, [UInt8])] = []
        for chunk in chunks.sorted(by: { $0.offset < $1.offset }) where chunk.offset + chunk.bytes.count > end {
            stream.append((.clientToServer, Array(chunk.bytes.dropFirst(max(0, end - chunk.offset)))))
            end = chunk.offset + chunk.bytes.count
        }
        return stream
    }
}
