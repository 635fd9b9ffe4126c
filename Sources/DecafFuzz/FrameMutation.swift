import DecafWire

/// One change the fuzzer made to an input, in the protocol's words, so a finding can say what was
/// sent ("msg_type set to 0x00FF; a container nested 5 deep; checksum and body_length repaired").
public indirect enum FrameMutation: Hashable, Sendable, CustomStringConvertible {
    /// A header field set to one of its interesting values.
    case headerField(FrameHeader.Field, UInt32)
    /// A TLV field inserted at the top level of the body.
    case insertedField(TLVTag, length: Int)
    case deletedField(TLVTag)
    /// A field written twice in a row (TLV-5 forbids duplicate tags at one level).
    case duplicatedField(TLVTag)
    case swappedFields(TLVTag, TLVTag)
    /// Fields wrapped in more containers, so the body's deepest field is inside `depth` containers.
    case nestedDeeper(depth: Int)
    /// A field's value emptied.
    case emptiedField(TLVTag)
    /// A field taken from another input of the corpus.
    case splicedField(TLVTag)
    /// A TLV length that says `by` bytes more (or fewer) than its value holds.
    case lyingLength(TLVTag, by: Int)
    /// A field's value set to one of the values decoders trip on (`what` says which).
    case value(TLVTag, String)
    /// A mutation of the inflated body of a zlib-compressed frame, compressed again.
    case insideCompressedBody(FrameMutation)
    /// The body zlib-compressed (compress_type 1), as a sender that agreed on zlib sends it.
    case compressedBody(inflatedLength: Int)
    /// A body of `inflatedLength` zero bytes compressed: a bomb up to (or past) the body limit.
    case compressionBomb(inflatedLength: Int)
    /// A byte of the compressed stream changed.
    case corruptedZlibStream(at: Int)
    case flippedBit(at: Int)
    case setByte(at: Int, to: UInt8)
    case insertedBytes(at: Int, count: Int)
    case deletedBytes(at: Int, count: Int)
    case truncated(to: Int)
    /// body_length and checksum made to agree with the body.
    case repaired

    public var description: String {
        switch self {
        case let .headerField(field, value): "\(field.name) set to \(Hex.word(value)) (\(value))"
        case let .insertedField(tag, length): "a \(tag.label) field of \(length) bytes inserted"
        case let .deletedField(tag): "the \(tag.label) field deleted"
        case let .duplicatedField(tag): "the \(tag.label) field written twice"
        case let .swappedFields(first, second): "the \(first.label) and \(second.label) fields swapped"
        case let .nestedDeeper(depth): "the body nested \(depth) container\(depth == 1 ? "" : "s") deep"
        case let .emptiedField(tag): "the \(tag.label) field's value emptied"
        case let .splicedField(tag): "a \(tag.label) field from another frame spliced in"
        case let .lyingLength(tag, by): "the \(tag.label) field's length \(by > 0 ? "+" : "")\(by) from its value's"
        case let .value(tag, what): "the \(tag.label) field's value set to \(what)"
        case let .insideCompressedBody(mutation): "inside the zlib body: \(mutation)"
        case let .compressedBody(length): "the body (\(length) bytes) zlib-compressed"
        case let .compressionBomb(length): "a zlib body inflating to \(length) bytes"
        case let .corruptedZlibStream(at): "the zlib stream corrupted at body byte \(at)"
        case let .flippedBit(at): "a bit flipped at byte \(at)"
        case let .setByte(at, value): "byte \(at) set to \(Hex.format(UInt32(value), width: 2))"
        case let .insertedBytes(at, count): "\(count) bytes inserted at byte \(at)"
        case let .deletedBytes(at, count): "\(count) bytes deleted at byte \(at)"
        case let .truncated(length): "cut to \(length) bytes"
        case .repaired: "body_length and checksum repaired"
        }
    }
}
