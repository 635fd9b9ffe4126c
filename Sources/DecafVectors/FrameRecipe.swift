import DecafWire

/// How a vector's frame is built: a header and TLV fields (or raw payload bytes), encoded by
/// `FrameEncoder` so body_length and checksum are right unless a vector breaks them on purpose.
public struct FrameRecipe: Hashable, Sendable {
    /// The timestamp every vector uses unless it tests timestamps: 2023-11-14T22:13:20Z.
    public static let timestamp: UInt32 = 1_700_000_000
    /// The session id of the brief's example UUID 12345678-9abc-def0-1234-56789abcdef0.
    public static let session = SessionID(rawValue: 0x444C)

    public var header: FrameHeader
    public var fields: [TLVField]
    /// The TLV bytes; set explicitly to carry bytes that are not the encoding of `fields`.
    public var payload: [UInt8]

    public init(header: FrameHeader, fields: [TLVField]) {
        self.header = header
        self.fields = fields
        payload = TLVEncoder.encode(fields)
    }

    public init(header: FrameHeader, payload: [UInt8], fields: [TLVField]) {
        self.header = header
        self.fields = fields
        self.payload = payload
    }

    /// A frame of `type` in its usual sequence category, counter 1, the standard timestamp and
    /// session.
    public static func frame(_ type: MessageType, _ fields: [TLVField] = []) -> FrameRecipe {
        let header = FrameHeader(
            messageType: type,
            sequence: SequenceNumber(category: .usual(for: type), counter: 1),
            timestamp: timestamp,
            sessionID: session
        )
        return FrameRecipe(header: header, fields: fields)
    }

    /// A DATA frame carrying `fields`.
    public static func data(_ fields: [TLVField]) -> FrameRecipe { frame(.data, fields) }

    /// A DATA frame whose body is the TLV bytes `payload`, which need not be valid.
    public static func data(payload: [UInt8]) -> FrameRecipe {
        var recipe = frame(.data)
        recipe.payload = payload
        return recipe
    }

    /// The recipe with its header changed by `change`.
    public func with(_ change: (inout FrameHeader) -> Void) -> FrameRecipe {
        var copy = self
        change(&copy.header)
        return copy
    }

    /// The encoded frame.
    public var bytes: [UInt8] {
        var encoder = FrameEncoder()
        return encoder.encode(header, payload: payload)
    }
}
