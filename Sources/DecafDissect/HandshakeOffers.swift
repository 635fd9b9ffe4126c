import DecafWire

/// The version offers among a frame's top-level fields, as the statistics' handshakes read them:
/// the last VERSION_REQUEST and the last VERSION_RESPONSE that fit their layout.
struct HandshakeOffers: FrameFieldVisitor {
    var request: VersionRequest?
    var response: VersionResponse?

    var descendsIntoContainers: Bool { false }

    /// Whether a field with `tag` may be an offer: one `registry` reads as a version offer, as
    /// `enterTLVField` asks.
    static func mayHold(_ tag: TLVTag, naming registry: FieldRegistry) -> Bool { registry.layout(of: tag) == .versionOffer }

    mutating func enterTLVField(_ field: TLVFieldItem) {
        guard field.depth == 0, field.layout == .versionOffer else { return }
        switch field.interpreted {
        case let .versionRequest(offer): request = offer
        case let .versionResponse(offer): response = offer
        default: break
        }
    }
}
