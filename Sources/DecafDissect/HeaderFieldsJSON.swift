import DecafJSON
import DecafWire

/// The `header` object of a frame's JSON record, over the values a walk of the header fields
/// found: each field gives the members its kind of value calls for (its number; the brief's name
/// for a named value; the sequence's category and counter; the timestamp as a time too), written
/// in the order of their keys (Specs/dissect-json.md). A header field added to the frame model
/// does not compile until `members(of:)` says how JSON shows it.
enum HeaderFieldsJSON {
    /// What a member shows of its field's value.
    enum Shown {
        case number, name, category, categoryName, counter, time
    }

    /// One member of the `header` object: its key, the field it shows and what it shows of it.
    struct Member {
        let key: StaticString
        let field: FrameHeader.Field
        let shown: Shown
    }

    /// The members `field` gives the object.
    static func members(of field: FrameHeader.Field) -> [Member] {
        let shown: [(StaticString, Shown)] = switch field {
        case .magic: [("magic", .number)]
        case .versionMajor: [("versionMajor", .number)]
        case .versionMinor: [("versionMinor", .number)]
        case .messageType: [("msgType", .number), ("msgTypeName", .name)]
        case .sequence: [("sequence", .number), ("sequenceCategory", .category), ("sequenceCategoryName", .categoryName), ("sequenceCounter", .counter)]
        case .timestamp: [("timestamp", .number), ("time", .time)]
        case .encryptType: [("encryptType", .number), ("encryptTypeName", .name)]
        case .compressType: [("compressType", .number), ("compressTypeName", .name)]
        case .sessionID: [("sessionId", .number)]
        case .bodyLength: [("bodyLength", .number)]
        case .checksum: [("checksum", .number)]
        }
        return shown.map { Member(key: $0.0, field: field, shown: $0.1) }
    }

    /// Every member of every field, in the order of their keys.
    static let members = FrameHeader.Field.inOrder.flatMap(members(of:)).sorted { $0.key.description < $1.key.description }

    /// Writes `member`'s value, as `values` hold it; `time` gives the timestamp's text, quoted.
    static func write(_ member: Member, of values: HeaderFieldValues, to writer: inout JSONWriter, time: (UInt32) -> [UInt8]) {
        let value = values[member.field]
        switch member.shown {
        case .number:
            writer.member(member.key, value)
        case .name:
            let name: StaticString? = switch member.field {
            case .messageType: MessageType(rawValue: UInt16(truncatingIfNeeded: value)).briefName
            case .encryptType: EncryptType(rawValue: UInt8(truncatingIfNeeded: value)).briefName
            case .compressType: CompressType(rawValue: UInt8(truncatingIfNeeded: value)).briefName
            default: nil
            }
            writer.member(member.key, name: name)
        case .category:
            writer.member(member.key, SequenceNumber(rawValue: value).category.rawValue)
        case .categoryName:
            writer.member(member.key, name: SequenceNumber(rawValue: value).category.briefName)
        case .counter:
            writer.member(member.key, SequenceNumber(rawValue: value).counter)
        case .time:
            writer.key(member.key)
            writer.raw(time(value))
        }
    }
}
