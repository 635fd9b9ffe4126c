/// A frame's fields, each once, in the order of its bytes: the frame model every output walks, as
/// Wireshark's printers walk one proto_tree. The walk reads the frame where it lies and allocates
/// nothing per field; it is valid only during the call that made it, like the bytes it borrows.
public struct FrameFields {
    /// The frame's bytes, as far as they arrived.
    public let bytes: UnsafeRawBufferPointer
    /// The header, when all of it arrived and it starts with the magic.
    public let header: FrameHeader?
    /// The TLV bytes (inflated, for a zlib body), when they can be read.
    public let payload: UnsafeRawBufferPointer?
    /// True when the bytes do not start with the magic.
    public let isNotAFrame: Bool
    /// True when the frame has an error.
    public let hasError: Bool
    /// The body offset of the TLV error that stopped the parse: no field after it is shown.
    public let fieldLimit: Int?

    /// The fields of one frame's bytes as decoded: its header and payload when it has them, whether the bytes are no frame at all or hold an error, for a walk over them.
    @inlinable
    public init(bytes: UnsafeRawBufferPointer, header: FrameHeader?, payload: UnsafeRawBufferPointer?, isNotAFrame: Bool, hasError: Bool,
                fieldLimit: Int?) {
        self.bytes = bytes
        self.header = header
        self.payload = payload
        self.isNotAFrame = isNotAFrame
        self.hasError = hasError
        self.fieldLimit = fieldLimit
    }

    /// The fields of a plain body alone, without the frame around it: what a walk of its TLV fields
    /// (`walkTLVFields`) shows, at body offsets from 0, for an output of expected fields that no
    /// frame carried (a golden vector's).
    public init(body: UnsafeRawBufferPointer) {
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 0), timestamp: 0, sessionID: SessionID(rawValue: 0),
                                 bodyLength: UInt32(body.count))
        self.init(bytes: body, header: header, payload: body, isNotAFrame: false, hasError: false, fieldLimit: nil)
    }

    /// How the body is encoded: zlib only for a body that is not empty and not encrypted.
    @inlinable
    public var encoding: BodyItem.Encoding {
        guard let header else { return .plain }
        if header.encryptType == .aes256 { return .opaque }
        return header.compressType == .zlib && header.bodyLength > 0 ? .zlib : .plain
    }

    /// The body bytes that arrived, as a range of the frame; nil without a header.
    @inlinable
    public var bodyRange: Range<Int>? {
        guard let header else { return nil }
        let end = min(bytes.count, FrameHeader.size + Int(header.bodyLength))
        return min(FrameHeader.size, end)..<end
    }

    /// The body, when all of it arrived.
    @inlinable
    public var completeBody: UnsafeRawBufferPointer? {
        guard let header, let bodyRange, bodyRange.count == Int(header.bodyLength) else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[bodyRange])
    }

    /// Shows `visitor` every field, in the order of the bytes, the TLV fields named by `registry`.
    @inlinable
    public func walk<Visitor: FrameFieldVisitor>(_ visitor: inout Visitor, naming registry: FieldRegistry) {
        if isNotAFrame {
            visitor.visitNotAFrame(0..<bytes.count)
            return
        }
        let headerEnd = min(bytes.count, FrameHeader.size)
        let wholeBody = completeBody
        var complete = 0
        for field in FrameHeader.Field.inOrder where field.range.upperBound <= headerEnd {
            var value: UInt32 = 0
            for index in field.range { value = value << 8 | UInt32(bytes[index]) }
            visitor.visitHeaderField(HeaderFieldItem(field: field, value: value, body: field == .checksum ? wholeBody : nil))
            complete = field.range.upperBound
        }
        if complete < headerEnd { visitor.visitIncompleteHeader(complete..<headerEnd) }
        guard let header, let bodyRange else { return }
        let encoding = encoding
        visitor.visitBody(BodyItem(range: bodyRange, declaredLength: header.bodyLength, encoding: encoding, payload: encoding == .opaque ? nil : payload))
        walkTLVFields(&visitor, naming: registry)
        if bodyRange.upperBound < bytes.count { visitor.visitTrailing(bodyRange.upperBound..<bytes.count) }
    }

    /// Shows `visitor` the TLV fields alone (and the bytes they leave unexplained), for an output
    /// that reads nothing else: the part of `walk` after the body.
    @inlinable
    public func walkTLVFields<Visitor: FrameFieldVisitor>(_ visitor: inout Visitor, naming registry: FieldRegistry) {
        guard let body = readableBody else { return }
        walk(body.fields, region: body.region, base: body.base, end: body.end, depth: 0, registry: registry, &visitor)
    }

    /// Whether one of the body's own fields (those a walk shows at depth 0) has a tag `matches`
    /// accepts, read without naming any: a test that lets a reader looking for a few tags skip the
    /// walk of the millions of frames without them.
    @inlinable
    public func hasTopLevelField(where matches: (TLVTag) -> Bool) -> Bool {
        guard let body = readableBody else { return false }
        for element in body.fields {
            if isPastError(element) { break }
            if matches(element.tag) { return true }
        }
        return false
    }

    /// The body's own fields where they can be read (in the frame, or in the inflated body), the
    /// region they lie in, where body offset 0 is in it, and where they end; nil for a body that
    /// cannot be read.
    @inlinable
    var readableBody: (fields: TLVSequenceView, region: FieldRegion, base: Int, end: Int)? {
        let encoding = encoding
        guard let readable = payload, header != nil, encoding != .opaque else { return nil }
        let region: FieldRegion = encoding == .zlib ? .decompressedBody : .frame
        return (TLVSequenceView(readable), region, region == .frame ? FrameHeader.size : 0, readable.count)
    }

    /// Whether `element` lies after the TLV error that stopped the parse: no such field is shown.
    @inlinable
    func isPastError(_ element: TLVSequenceView.Element) -> Bool {
        guard let fieldLimit else { return false }
        return element.offset > fieldLimit
    }

    @inlinable
    func walk<Visitor: FrameFieldVisitor>(_ fields: TLVSequenceView, region: FieldRegion, base: Int, end: Int, depth: Int, registry: FieldRegistry,
                                          _ visitor: inout Visitor) {
        var parsedEnd = fields.baseOffset
        for element in fields {
            if isPastError(element) { break }
            let item = TLVFieldItem(element: element, registry: registry, region: region, depth: depth, base: base)
            visitor.enterTLVField(item)
            let valueEnd = element.offset + TLVEncoder.fieldHeaderSize + element.value.count
            if element.isContainer && visitor.descendsIntoContainers {
                walk(element.children, region: region, base: base, end: valueEnd, depth: depth + 1, registry: registry, &visitor)
            }
            visitor.exitTLVField(item)
            parsedEnd = valueEnd
        }
        guard parsedEnd < end, visitor.descendsIntoContainers || depth == 0 else { return }
        visitor.visitUnparsed(UnparsedItem(region: region, range: (base + parsedEnd)..<(base + end), depth: depth, afterError: hasError))
    }
}
