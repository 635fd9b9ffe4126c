import DecafWire

/// The control fields among a frame's top-level fields, as the statistics' handshakes and the
/// monitor read them: the last VERSION_REQUEST, VERSION_RESPONSE, ERROR report and READ_RECEIPT
/// that fit their layout.
public struct ControlFields: FrameFieldVisitor {
    public var request: VersionRequest?
    public var response: VersionResponse?
    public var error: ErrorReport?
    public var readReceipt: ReadReceipt?

    public init() {}

    public var descendsIntoContainers: Bool { false }

    /// Whether a field with `tag` may be a version offer: one `registry` reads as such, as
    /// `enterTLVField` asks.
    public static func mayHoldOffer(_ tag: TLVTag, naming registry: FieldRegistry) -> Bool { registry.layout(of: tag) == .versionOffer }

    public mutating func enterTLVField(_ field: TLVFieldItem) {
        guard field.depth == 0, field.layout == .versionOffer || field.layout == .errorReport || field.layout == .sequence else { return }
        switch field.interpreted {
        case let .versionRequest(offer): request = offer
        case let .versionResponse(offer): response = offer
        case let .error(report): error = report
        case let .readReceipt(receipt): readReceipt = receipt
        default: break
        }
    }
}
