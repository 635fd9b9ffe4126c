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
    public var expectation: VectorExpectation

    public var result: VectorResult { expectation.result }

    public init(tcId: Int, comment: String, requirements: [RequirementID], flags: [VectorFlag] = [], bytes: [UInt8], expectation: VectorExpectation) {
        self.tcId = tcId
        self.comment = comment
        self.requirements = requirements
        self.flags = flags
        self.bytes = bytes
        self.expectation = expectation
    }

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
        FrameVector(
            tcId: tcId, comment: comment, requirements: requirements, flags: flags, bytes: bytes,
            expectation: .valid(ExpectedFrame(decoding: bytes, payload: payload, fields: fields, flags: flags))
        )
    }

    /// An invalid vector: a decoder must report `error` at `offset`.
    public static func invalid(
        _ tcId: Int, _ comment: String, _ requirements: [RequirementID],
        flags: [VectorFlag] = [], _ bytes: [UInt8], _ error: ErrorCode, at offset: Int
    ) -> FrameVector {
        FrameVector(
            tcId: tcId, comment: comment, requirements: requirements, flags: flags, bytes: bytes,
            expectation: .invalid(ExpectedRefusal(error, at: offset))
        )
    }

    /// A vector the brief lets a receiver accept, as `recipe`'s frame, or reject with `error` at
    /// `offset`.
    public static func acceptable(
        _ tcId: Int, _ comment: String, _ requirements: [RequirementID],
        flags: [VectorFlag] = [], _ recipe: FrameRecipe, _ error: ErrorCode, at offset: Int
    ) -> FrameVector {
        let payload = recipe.header.encryptType == .aes256 ? [] : recipe.payload
        let fields = recipe.header.encryptType == .aes256 ? [] : recipe.fields
        return FrameVector(
            tcId: tcId, comment: comment, requirements: requirements, flags: flags, bytes: recipe.bytes,
            expectation: .acceptable(ExpectedFrame(decoding: recipe.bytes, payload: payload, fields: fields, flags: flags),
                                     ExpectedRefusal(error, at: offset))
        )
    }
}
