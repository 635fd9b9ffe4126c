/// A field's value read with its tag's known layout (TLV-4), for showing and for acting on it.
/// A value that does not fit its tag's layout is `.malformed`, which is not a protocol error.
public enum TLVValue: Hashable, Sendable {
    case versionRequest(VersionRequest)
    case versionResponse(VersionResponse)
    case readReceipt(ReadReceipt)
    case error(ErrorReport)
    case text(String)
    case container
    case bytes
    /// The tag's layout does not fit the value; says why.
    case malformed(String)

    public init(tag: TLVTag, value: some Collection<UInt8>) {
        switch tag.layout {
        case .versionOffer:
            let offer = tag == .versionRequest
                ? VersionRequest(value: value).map(TLVValue.versionRequest)
                : VersionResponse(value: value).map(TLVValue.versionResponse)
            self = offer ?? .malformed("expected 4 bytes (u16 version, u16 features), found \(value.count)")
        case .sequence:
            self = ReadReceipt(value: value).map(TLVValue.readReceipt)
                ?? .malformed("expected a 4-byte sequence, found \(value.count) bytes")
        case .errorReport:
            self = ErrorReport(value: value).map(TLVValue.error)
                ?? .malformed("expected a u16 code and a UTF-8 reason")
        case .utf8:
            self = String(validating: Array(value), as: UTF8.self).map(TLVValue.text)
                ?? .malformed("not valid UTF-8")
        case .container:
            self = .container
        case .bytes:
            self = .bytes
        }
    }
}
