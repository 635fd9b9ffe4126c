/// A field's value read with its tag's known layout (TLV-4), for showing and for acting on it.
/// A value that does not fit its tag's layout is `.malformed`, which is not a protocol error.
public enum TLVValue: Hashable, Sendable {
    /// A VERSION_REQUEST's version and features.
    case versionRequest(VersionRequest)
    /// A VERSION_RESPONSE's version and features.
    case versionResponse(VersionResponse)
    /// A READ_RECEIPT's sequence.
    case readReceipt(ReadReceipt)
    /// An ERROR's code and reason.
    case error(ErrorReport)
    /// A TEXT's string.
    case text(String)
    /// A container: its value is fields, walked on their own.
    case container
    /// Bytes the layout does not read further (an unknown tag's, an IMAGE's).
    case bytes
    /// The tag's layout does not fit the value; says why.
    case malformed(String)

    /// The value read with the layout `registry` gives its tag (the brief's by default).
    public init(tag: TLVTag, value: some Collection<UInt8>, registry: FieldRegistry = .brief) {
        self.init(tag: tag, value: value, layout: registry.layout(of: tag))
    }

    /// The value read with `layout`.
    public init(tag: TLVTag, value: some Collection<UInt8>, layout: TLVValueLayout) {
        let bytes = Array(value)
        if let why = bytes.withUnsafeBytes({ Self.misfit(layout: layout, value: $0) }) {
            self = .malformed(why)
            return
        }
        // `misfit` found the value fits its layout, so each reading below succeeds.
        switch layout {
        case .versionOffer:
            self = tag == .versionRequest ? .versionRequest(VersionRequest(value: bytes)!) : .versionResponse(VersionResponse(value: bytes)!)
        case .sequence:
            self = .readReceipt(ReadReceipt(value: bytes)!)
        case .errorReport:
            self = .error(ErrorReport(value: bytes)!)
        case .utf8:
            self = .text(String(decoding: bytes, as: UTF8.self))
        case .container:
            self = .container
        case .bytes:
            self = .bytes
        }
    }

    /// Why `value` does not fit `tag`'s layout, nil when it fits: what a dissector asks of every
    /// field it shows, answered without building the value.
    public static func misfit(tag: TLVTag, value: UnsafeRawBufferPointer, registry: FieldRegistry = .brief) -> String? {
        misfit(layout: registry.layout(of: tag), value: value)
    }

    /// Why `value` does not fit `layout`, nil when it fits.
    public static func misfit(layout: TLVValueLayout, value: UnsafeRawBufferPointer) -> String? {
        switch layout {
        case .versionOffer:
            value.count == 4 ? nil : "expected 4 bytes (u16 version, u16 features), found \(value.count)"
        case .sequence:
            value.count == 4 ? nil : "expected a 4-byte sequence, found \(value.count) bytes"
        case .errorReport:
            value.count >= 2 && isUTF8(UnsafeRawBufferPointer(rebasing: value[2...])) ? nil : "expected a u16 code and a UTF-8 reason"
        case .utf8:
            isUTF8(value) ? nil : "not valid UTF-8"
        case .container, .bytes:
            nil
        }
    }

    /// Whether `bytes` are well-formed UTF-8, checked in place.
    public static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? UTF8Span(validating: bytes.assumingMemoryBound(to: UInt8.self).span)) != nil
    }
}
