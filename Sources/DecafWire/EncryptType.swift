/// The header's encrypt_type. `crc32` means integrity only, with the body in clear; `aes256` means
/// the body is opaque to the toolkit. Other values are representable so they can be reported.
public struct EncryptType: BriefNamedWireValue {
    /// The encrypt_type byte as it travels.
    public var rawValue: UInt8
    /// The encrypt_type of this byte, known to the brief or not.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0, NONE: the body in clear.
    @inlinable public static var none: EncryptType { EncryptType(rawValue: 0) }
    /// 1, CRC32: integrity only; the body is in clear.
    @inlinable public static var crc32: EncryptType { EncryptType(rawValue: 1) }
    /// 2, AES256: the body is opaque to a receiver that cannot decrypt (FRAME-5).
    @inlinable public static var aes256: EncryptType { EncryptType(rawValue: 2) }

    /// The brief's name, or nil for a value it does not define.
    @inlinable
    public var briefName: StaticString? {
        switch rawValue {
        case 0: "NONE"
        case 1: "CRC32"
        case 2: "AES256"
        default: nil
        }
    }
}
