/// The header's encrypt_type. `crc32` means integrity only, with the body in clear; `aes256` means
/// the body is opaque to the toolkit. Other values are representable so they can be reported.
public struct EncryptType: BriefNamedWireValue {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    @inlinable public static var none: EncryptType { EncryptType(rawValue: 0) }
    @inlinable public static var crc32: EncryptType { EncryptType(rawValue: 1) }
    @inlinable public static var aes256: EncryptType { EncryptType(rawValue: 2) }

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
