/// Decodes a TLV body into fields after checking it against the brief's rules.
public struct TLVDecoder: Sendable {
    /// The depth limit and whether a tag may repeat.
    public var options: TLVOptions

    /// A decoder parsing as `options` allow; the defaults are the brief's.
    public init(options: TLVOptions = TLVOptions()) {
        self.options = options
    }

    /// The fields of `body`, or the first rule it breaks.
    public func decode(_ body: ArraySlice<UInt8>) throws(WireError) -> [TLVField] {
        try TLVValidator.validate(body, options: options)
        return TLVSequence(body).map(TLVField.init)
    }

    /// The fields of `body`, or the first rule it breaks.
    public func decode(_ body: [UInt8]) throws(WireError) -> [TLVField] {
        try decode(body[...])
    }
}
