/// The header's compress_type: `zlib` means the body is one zlib stream of the TLV bytes (ZLIB-1).
/// Other values are representable so they can be reported.
public struct CompressType: BriefNamedWireValue {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    @inlinable public static var none: CompressType { CompressType(rawValue: 0) }
    @inlinable public static var zlib: CompressType { CompressType(rawValue: 1) }

    @inlinable
    public var briefName: StaticString? {
        switch rawValue {
        case 0: "NONE"
        case 1: "ZLIB"
        default: nil
        }
    }
}
