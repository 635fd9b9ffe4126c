import DecafJSON
import DecafWire

/// The header's columns of `decaf dissect`'s summary line, over the values a walk of the header
/// fields found: the fields a line shows, each a column of fixed width (type, sequence as
/// category/counter, session, body size with what inflating gave). A header field added to the
/// frame model does not compile until `column(of:)` says whether a line shows it.
enum HeaderSummaryColumns {
    /// A column: the field it shows, its width, and whether it may hold more than ASCII.
    struct Column {
        let field: FrameHeader.Field
        let width: Int
        var mayHoldCharacters = false
    }

    /// The column of `field`, or nil when a summary line leaves it out.
    static func column(of field: FrameHeader.Field) -> Column? {
        switch field {
        case .messageType: Column(field: field, width: 13)
        case .sequence: Column(field: field, width: 22)
        case .sessionID: Column(field: field, width: 14)
        // `zlib→` when the body was inflated.
        case .bodyLength: Column(field: field, width: 18, mayHoldCharacters: true)
        case .magic, .versionMajor, .versionMinor, .timestamp, .encryptType, .compressType, .checksum: nil
        }
    }

    /// The columns, in the order of the header's bytes.
    static let columns = FrameHeader.Field.inOrder.compactMap(column(of:))

    /// Appends `column`'s text, as `values` hold its field, for the frame `parts`.
    @inline(__always)
    static func write(_ column: Column, of values: HeaderFieldValues, parts: FrameParts, to text: OutputBuffer) {
        let value = values[column.field]
        switch column.field {
        case .messageType:
            text.appendDescription(of: MessageType(rawValue: UInt16(truncatingIfNeeded: value)))
        case .sequence:
            let sequence = SequenceNumber(rawValue: value)
            text.append("seq ")
            text.appendDescription(of: sequence.category)
            text.append(UInt8(ascii: "/"))
            text.appendDecimal(sequence.counter)
        case .sessionID:
            text.append("session 0x")
            text.appendUppercaseHex(UInt16(truncatingIfNeeded: value))
        case .bodyLength:
            text.append("body ")
            text.appendDecimal(value)
            if parts.isCompressed, let payload = parts.payload {
                text.append(" zlib→")
                text.appendDecimal(payload.count)
            }
            if parts.isOpaque { text.append(" opaque") }
        default:
            text.appendDecimal(value)
        }
    }
}
