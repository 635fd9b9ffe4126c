/// The header's compress_type: `zlib` means the body is one zlib stream of the TLV bytes (ZLIB-1).
/// Other values are representable so they can be reported.
public struct CompressType: BriefNamedWireValue {
    /// The compress_type byte as it travels.
    public var rawValue: UInt8
    /// The compress_type of this byte, known to the brief or not.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0, NONE: the body travels as it is.
    @inlinable public static var none: CompressType { CompressType(rawValue: 0) }
    /// 1, ZLIB: the body is one zlib stream of the TLV bytes (ZLIB-1).
    @inlinable public static var zlib: CompressType { CompressType(rawValue: 1) }

    /// The brief's name, or nil for a value it does not define.
    @inlinable
    public var briefName: StaticString? {
        switch rawValue {
        case 0: "NONE"
        case 1: "ZLIB"
        default: nil
        }
    }
}
