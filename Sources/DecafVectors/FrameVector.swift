import DecafWire

/// One golden vector: a byte stream holding one frame (or the start of one), and what a decoder
/// with its group's options must make of it.
public struct FrameVector: Hashable, Sendable {
    /// Stable identifier, never reused.
    public var tcId: Int
    public var comment: String
    public var requirements: [RequirementID]
    public var flags: [VectorFlag]
    public var bytes: [UInt8]
    public var result: VectorResult
    /// For invalid and acceptable vectors: the error a rejecting decoder reports, and its offset.
    public var error: ErrorCode?
    public var offset: Int?
    /// For valid vectors: the decoded frame.
    public var expected: ExpectedFrame?

    /// A valid vector built from `recipe`; its expected frame is the recipe's header and fields.
    public static func valid(
        _ tcId: Int, _ comment: String, _ requirements: [RequirementID],
        flags: [VectorFlag] = [], _ recipe: FrameRecipe
    ) -> FrameVector {
        valid(tcId, comment, requirements, flags: flags, bytes: recipe.bytes,
              payload: recipe.payload, fields: recipe.fields)
    }

    /// A valid vector from explicit bytes and the payload and fields they must decode to.
    public static func valid(
        _ tcId: Int, _ comment: String, _ requirements: [RequirementID],
        flags: [VectorFlag] = [], bytes: [UInt8], payload: [UInt8], fields: [TLVField]
    ) -> FrameVector {
        let header = FrameHeader(decoding: bytes)!
        let warnings: [RequirementID] = flags.contains(.sequenceCategoryMismatch) ? [.seq2] : []
        return FrameVector(
            tcId: tcId, comment: comment, requirements: requirements, flags: flags, bytes: bytes,
            result: .valid, error: nil, offset: nil,
            expected: ExpectedFrame(header: header, payload: payload, fields: fields, warnings: warnings)
        )
    }

    /// An invalid vector: a decoder must report `error` at `offset`.
    public static func invalid(
        _ tcId: Int, _ comment: String, _ requirements: [RequirementID],
        flags: [VectorFlag] = [], _ bytes: [UInt8], _ error: ErrorCode, at offset: Int
    ) -> FrameVector {
        FrameVector(
            tcId: tcId, comment: comment, requirements: requirements, flags: flags, bytes: bytes,
            result: .invalid, error: error, offset: offset, expected: nil
        )
    }

    /// A vector the brief lets a receiver accept or reject; one that rejects reports `error` at
    /// `offset`.
    public static func acceptable(
        _ tcId: Int, _ comment: String, _ requirements: [RequirementID],
        flags: [VectorFlag] = [], _ bytes: [UInt8], _ error: ErrorCode, at offset: Int
    ) -> FrameVector {
        FrameVector(
            tcId: tcId, comment: comment, requirements: requirements, flags: flags, bytes: bytes,
            result: .acceptable, error: error, offset: offset, expected: nil
        )
    }
}
