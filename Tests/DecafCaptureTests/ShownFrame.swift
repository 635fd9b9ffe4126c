import DecafCapture
import DecafDissect
import DecafJSON
import DecafWire

/// What a dissector shows of one frame, field by field: each field's Wireshark name, where it is,
/// how long, its value and the name given to the value, in tree order; and its expert messages.
/// Wireshark's reading (PDML from tshark with the plugin) and Decaf's (`decaf dissect --json`) are
/// both turned into these, so a test compares them whole.
struct ShownFrame: Hashable {
    var fields: [ShownField] = []
    /// Errors as "NAME (REQ) at offset N": code, requirement and offset (each tool words the why
    /// in its own way).
    var experts: [String] = []

    /// An expert message without its why.
    static func errorPrefix(_ message: String) -> String {
        String(message.prefix { $0 != ":" })
    }
}

struct ShownField: Hashable, CustomStringConvertible {
    var name: String
    /// From the frame's first byte for header and body fields, from the (inflated) body's first
    /// byte for TLV fields; nil for a field without bytes of its own.
    var offset: Int?
    var length: Int?
    /// Hex of the bytes; for a bit field its value in hex; for a text-only field its text.
    var value: String
    /// The name the dissector gives the value (a message type's, a tag's), when it names one.
    var label: String?

    var description: String {
        let place = offset.map { " at \($0)" } ?? ""
        let size = length.map { "+\($0)" } ?? ""
        return "\(name)\(place)\(size) = \(value)" + (label.map { " (\($0))" } ?? "")
    }
}

// MARK: - Wireshark's reading

extension ShownFrame {
    /// Fields whose value tshark shows with a name from a value table.
    private static let named: Set = ["decaf.msg_type", "decaf.seq.category", "decaf.encrypt_type", "decaf.compress_type", "decaf.tlv.tag"]

    /// The frames the plugin shows in one packet's protocols, in order, and the bytes it skipped
    /// after the last of them (or without any frame). Bytes skipped before a frame go with it.
    static func frames(inPacket protocols: [PDMLNode]) -> (frames: [ShownFrame], skippedAfter: Int?) {
        var frames: [ShownFrame] = []
        var skipped: Int?
        for node in protocols {
            if node.element == "proto", node.name == "decaf" {
                var frame = ShownFrame()
                if let count = skipped { frame.addSkipped(count) }
                frame.read(node.children, base: node.position)
                frames.append(frame)
                skipped = nil
            } else {
                for child in node.children where child.name == "decaf.skipped" {
                    skipped = (skipped ?? 0) + child.size
                }
            }
        }
        return (frames, skipped)
    }

    /// The stream a packet's TCP payload belongs to: "address port > address port".
    static func stream(ofPacket protocols: [PDMLNode]) -> String {
        let fields = protocols.filter { ["ip", "ipv6", "tcp"].contains($0.name) }.flatMap(\.children)
        func value(_ names: String...) -> String { fields.first { names.contains($0.name) }?.show ?? "?" }
        return "\(value("ip.src", "ipv6.src")) \(value("tcp.srcport")) > \(value("ip.dst", "ipv6.dst")) \(value("tcp.dstport"))"
    }

    /// Bytes passed over to reach the next magic, as the plugin shows them.
    mutating func addSkipped(_ count: Int) {
        let badMagic = WireError(.badMagic(found: 0), offset: 0)
        fields.append(ShownField(name: "decaf.skipped", length: count, value: ""))
        experts.append("\(badMagic.code.name) (\(badMagic.requirement.rawValue))")
    }

    /// Adds `nodes` and what they contain; offsets count from `base`, the body's start for the
    /// "Body fields" subtree.
    private mutating func read(_ nodes: [PDMLNode], base: Int) {
        for node in nodes {
            if node.element == "proto", node.name == "decaf" {
                // The body's fields: the first starts at the body's first byte, which is where the
                // offsets count from (tshark places an inflated body's subtree oddly).
                read(node.children, base: node.children.first?.position ?? node.position)
            } else if node.name == "_ws.expert" {
                experts += node.children.filter { $0.name == "_ws.expert.message" }.map { Self.errorPrefix($0.show) }
            } else if node.name.hasPrefix("decaf."), node.name != "decaf.summary", node.name != "decaf.skipped" {
                fields.append(Self.field(node, base: base))
                read(node.children, base: base)
            }
        }
    }

    private static func field(_ node: PDMLNode, base: Int) -> ShownField {
        guard node.size > 0 else { return ShownField(name: node.name, value: node.show) }
        var field = ShownField(name: node.name, offset: node.position - base, length: node.size, value: (node.value ?? node.show).lowercased())
        if node.name == "decaf.tlv" {
            // A TLV item is labelled "NAME (0xTAG), N bytes"; its value is in its children.
            field.value = ""
            field.label = node.showname.components(separatedBy: " (0x").first
        } else if named.contains(node.name), let match = node.showname.firstMatch(of: /: (.+) \((?:0x[0-9a-fA-F]+|\d+)\)$/) {
            field.label = String(match.1)
        }
        return field
    }
}

// MARK: - Decaf's reading

extension ShownFrame {
    /// Wireshark's name for each header field: the plugin's display filter names.
    static let headerFieldNames: [FrameHeader.Field: String] = [
        .magic: "decaf.magic", .versionMajor: "decaf.version.major", .versionMinor: "decaf.version.minor",
        .messageType: "decaf.msg_type", .sequence: "decaf.seq", .timestamp: "decaf.timestamp",
        .encryptType: "decaf.encrypt_type", .compressType: "decaf.compress_type", .sessionID: "decaf.session_id",
        .bodyLength: "decaf.body_length", .checksum: "decaf.checksum",
    ]

    /// What Wireshark should show of a frame `decaf dissect --json` wrote, with the bytes skipped
    /// before it.
    init(_ record: FrameRecordJSON, skipped: Int?) {
        if let skipped { addSkipped(skipped) }
        guard let header = record.header else { return }
        let values: [FrameHeader.Field: UInt32] = [
            .magic: header.magic, .versionMajor: UInt32(header.versionMajor), .versionMinor: UInt32(header.versionMinor),
            .messageType: UInt32(header.msgType), .sequence: header.sequence, .timestamp: header.timestamp,
            .encryptType: UInt32(header.encryptType), .compressType: UInt32(header.compressType),
            .sessionID: UInt32(header.sessionId), .bodyLength: header.bodyLength, .checksum: header.checksum,
        ]
        let labels: [FrameHeader.Field: String] = [
            .messageType: header.msgTypeName ?? "Unknown", .encryptType: header.encryptTypeName ?? "Unknown",
            .compressType: header.compressTypeName ?? "Unknown",
        ]
        for field in FrameHeader.Field.allCases {
            let value = values[field] ?? 0
            fields.append(ShownField(name: Self.headerFieldNames[field] ?? "", offset: field.offset, length: field.size,
                                     value: Self.hex(value, bytes: field.size), label: labels[field]))
            if field == .sequence {
                fields.append(ShownField(name: "decaf.seq.category", offset: field.offset, length: field.size,
                                         value: String(header.sequenceCategory, radix: 16), label: header.sequenceCategoryName ?? "Unknown"))
                fields.append(ShownField(name: "decaf.seq.counter", offset: field.offset, length: field.size,
                                         value: String(header.sequenceCounter, radix: 16)))
            }
        }
        if let body = record.body, body.length > 0 {
            fields.append(ShownField(name: "decaf.body", offset: FrameHeader.size, length: body.length, value: body.hex))
        }
        add(record.tlv ?? [])
        if let checksum = record.checksum {
            fields.append(ShownField(name: "decaf.checksum.status", value: checksum.status))
        }
        if let error = record.error {
            fields.append(ShownField(name: "decaf.error", value: "\(error.name)(\(error.requirement))@\(error.offset)"))
            experts.append("\(error.name) (\(error.requirement)) at offset \(error.offset)")
        }
    }

    private mutating func add(_ tlv: [TLVFieldJSON]) {
        for field in tlv {
            let tag = TLVTag(field.tag)
            fields.append(ShownField(name: "decaf.tlv", offset: field.offset, length: TLVEncoder.fieldHeaderSize + field.length,
                                     value: "", label: field.name ?? Hex.format(field.tag, width: 4)))
            fields.append(ShownField(name: "decaf.tlv.tag", offset: field.offset, length: 2, value: Self.hex(UInt32(field.tag), bytes: 2),
                                     label: field.name ?? "Unknown"))
            fields.append(ShownField(name: "decaf.tlv.length", offset: field.offset + 2, length: 4, value: Self.hex(UInt32(field.length), bytes: 4)))
            if let children = field.fields {
                add(children)
            } else if let value = field.value, field.length > 0 {
                fields.append(ShownField(name: tag.layout == .utf8 ? "decaf.tlv.text" : "decaf.tlv.value",
                                         offset: field.offset + TLVEncoder.fieldHeaderSize, length: field.length, value: value))
            }
        }
    }

    /// `value` as tshark shows a field's bytes: lower-case hex, two digits per byte.
    private static func hex(_ value: UInt32, bytes: Int) -> String {
        Hex.format(value, width: bytes * 2).dropFirst(2).lowercased()
    }
}
