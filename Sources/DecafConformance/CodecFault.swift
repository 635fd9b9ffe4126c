import DecafWire

/// Ways `decaf testee decoder` misbehaves on purpose, each only on a rare input deep behind a
/// valid checksum, so no golden vector (and no conformance case) meets it: the faults `decaf fuzz
/// decoder` must find.
public enum CodecFault: String, Hashable, Sendable, CaseIterable {
    case crashOnDeepEmptyText = "crash-on-deep-empty-text"
    case hangAtInflateLimit = "hang-at-inflate-limit"
    case acceptsShortZlibBody = "accepts-short-zlib-body"
    case crashOnCompressedInvalidText = "crash-on-compressed-invalid-text"

    public var name: String { rawValue }

    /// What the testee does wrong, in one line.
    public var summary: String {
        switch self {
        case .crashOnDeepEmptyText: "aborts when a container nested four deep holds an empty TEXT"
        case .hangAtInflateLimit: "stops answering when a zlib body inflates to exactly the body limit"
        case .acceptsShortZlibBody: "accepts a zlib frame whose body_length is one more than the bytes that follow"
        case .crashOnCompressedInvalidText: "aborts when a zlib-compressed body holds a TEXT field that is not UTF-8"
        }
    }

    /// The requirements an answer of the faulty testee breaks.
    public var breaks: [RequirementID] {
        switch self {
        case .crashOnDeepEmptyText: [.tlv2]
        case .hangAtInflateLimit: [.zlib2]
        case .acceptsShortZlibBody: [.frame3]
        case .crashOnCompressedInvalidText: [.tlv4]
        }
    }
}
