import DecafWire

/// What a decoder must produce for a valid vector: the header fields, the TLV bytes after
/// decompression and the field tree. It comes from how the vector was built, not from decoding it.
public struct ExpectedFrame: Hashable, Sendable {
    public var header: FrameHeader
    public var payload: [UInt8]
    public var fields: [TLVField]
    /// Requirement IDs of warnings a dissector should raise (SEQ-2).
    public var warnings: [RequirementID]

    public init(header: FrameHeader, payload: [UInt8], fields: [TLVField], warnings: [RequirementID]) {
        self.header = header
        self.payload = payload
        self.fields = fields
        self.warnings = warnings
    }

    /// What a receiver took: `frame`'s header and payload, with no fields or warnings to compare.
    public init(taken frame: Frame) {
        self.init(header: frame.header, payload: Array(frame.payload), fields: [], warnings: [])
    }

    /// The frame of a vector's `bytes` (the catalog's own, which always start with a whole
    /// header), with the payload and fields they were built from and the warnings `flags` call for.
    init(decoding bytes: [UInt8], payload: [UInt8], fields: [TLVField], flags: [VectorFlag]) {
        guard let header = FrameHeader(decoding: bytes) else { preconditionFailure("a vector's frame is shorter than a header") }
        self.init(header: header, payload: payload, fields: fields, warnings: flags.contains(.sequenceCategoryMismatch) ? [.seq2] : [])
    }
}
