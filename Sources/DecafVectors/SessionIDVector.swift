/// One session-id derivation vector (SESSION-1): a session UUID and the session_id it gives.
public struct SessionIDVector: Hashable, Sendable {
    public var tcId: Int
    public var comment: String
    public var uuid: String
    public var result: VectorResult
    /// The derived id, for valid and acceptable vectors.
    public var sessionID: UInt16?

    public init(_ tcId: Int, _ comment: String, _ uuid: String, _ result: VectorResult, _ sessionID: UInt16? = nil) {
        self.tcId = tcId
        self.comment = comment
        self.uuid = uuid
        self.result = result
        self.sessionID = sessionID
    }

    /// The vectors, each stating its expected id as worked out by hand from the brief's rule.
    public static let all: [SessionIDVector] = [
        .init(1, "the brief's example: 0x1234 ^ 0x5678", "12345678-9abc-def0-1234-56789abcdef0", .valid, 0x444C),
        .init(2, "the brief's example in upper case", "12345678-9ABC-DEF0-1234-56789ABCDEF0", .valid, 0x444C),
        .init(3, "the brief's example without dashes", "123456789abcdef0123456789abcdef0", .valid, 0x444C),
        .init(4, "only the first 8 hex digits matter", "12345678-0000-0000-0000-000000000000", .valid, 0x444C),
        .init(5, "RFC 4122 DNS namespace UUID: 0x6ba7 ^ 0xb810", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", .valid, 0xD3B7),
        .init(6, "nil UUID", "00000000-0000-0000-0000-000000000000", .valid, 0x0000),
        .init(7, "max UUID: equal halves cancel", "ffffffff-ffff-ffff-ffff-ffffffffffff", .valid, 0x0000),
        .init(8, "halves 0xFFFF and 0x0000", "ffff0000-1111-2222-3333-444444444444", .valid, 0xFFFF),
        .init(9, "halves 0x0001 and 0x0000", "00010000-aaaa-bbbb-cccc-dddddddddddd", .valid, 0x0001),
        .init(10, "a version 4 UUID: 0xf47a ^ 0xc10b", "f47ac10b-58cc-4372-a567-0e02b2c3d479", .valid, 0x3571),
        .init(11, "empty string", "", .invalid),
        .init(12, "fewer than 8 hex digits", "1234567", .invalid),
        .init(13, "a non-hex digit among the first 8", "1234567g-9abc-def0-1234-56789abcdef0", .invalid),
        .init(14, "spaces instead of dashes: the first 8 digits are fine, the rest is not a UUID", "12345678 9abc def0 1234 56789abcdef0", .acceptable, 0x444C),
        .init(15, "only the first 8 digits are used, but the rest is not a UUID (31 digits)", "12345678-9abc-def0-1234-56789abcdef", .acceptable, 0x444C),
        .init(16, "only the first 8 digits are used, but the rest holds a non-hex digit", "12345678-9abc-def0-1234-56789abcdefz", .acceptable, 0x444C),
        .init(17, "braces around the UUID", "{12345678-9abc-def0-1234-56789abcdef0}", .invalid),
    ]
}
