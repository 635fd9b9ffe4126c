/// The value layouts of the brief's known tags (TLV-4).
public enum TLVValueLayout: String, Hashable, Sendable {
    /// u16 version (major << 8 | minor), u16 feature flags: VERSION_REQUEST, VERSION_RESPONSE.
    case versionOffer
    /// u32 sequence of the frame that was read: READ_RECEIPT.
    case sequence
    /// u16 error code, then a UTF-8 reason: ERROR.
    case errorReport
    /// UTF-8 text: TEXT.
    case utf8
    /// A nested TLV sequence: CONTAINER.
    case container
    /// Opaque bytes: every other tag, known or not.
    case bytes
}
