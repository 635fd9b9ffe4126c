import DecafConformance
import DecafDiagnosis
import DecafSession
import DecafWire

/// A limit a server may set otherwise than the suite was told: a nesting depth (TLV-2) or a body
/// limit (FRAME-2) of its own. It is a legal choice, and the suite judges it as failures only
/// because it was not told (`conform server --depth-limit`, `--body-limit`). The server diagnosis
/// draws on these beside the catalog's mistakes, so such a server hears what it behaves as and the
/// option that tells the suite, not the name of a mistake it may not make.
public enum ServerLimit: Hashable, Sendable {
    /// Nesting refused only deeper than `depth`, where the suite was told `told`.
    case depth(Int, told: Int)
    /// Bodies refused only over `bytes`, where the suite was told `told`.
    case body(Int, told: Int)

    /// The limits a server told `profile` may have instead, in the order a diagnosis tries them
    /// (the least surprising first). Left out: the profile's own, and the one the catalog's
    /// off-by-one mistakes already give (`depth-limit-off-by-one`, `body-limit-off-by-one`), whose
    /// fix names the option too. Depths run to four above the told one (the vectors nest six
    /// containers at most: the first that explains is named "at least"); bodies are powers of two
    /// from 64 bytes below the told limit, and twice it above.
    public static func candidates(for profile: ConformanceProfile) -> [ServerLimit] {
        let told = profile.depthLimit
        let depths = Array(0..<told) + Array((told + 2)...(told + 4))
        let bodies = (6..<31).map { 1 << $0 }.filter { $0 < profile.bodyLimit - 1 } + [profile.bodyLimit * 2]
        return depths.map { .depth($0, told: told) } + bodies.map { .body($0, told: profile.bodyLimit) }
    }

    /// The name a report gives it: `depth-limit-6`, `body-limit-4096`.
    public var name: String {
        switch self {
        case let .depth(depth, _): "depth-limit-\(depth)"
        case let .body(bytes, _): "body-limit-\(bytes)"
        }
    }

    /// What the server does, against what the suite was told.
    public var cause: String {
        switch self {
        case let .depth(depth, told) where depth > told:
            "takes TLV nesting to a depth of \(depth) or more, where the suite was told a depth limit of \(told)"
        case let .depth(depth, told):
            "refuses TLV nesting deeper than \(depth), where the suite was told a depth limit of \(told)"
        case let .body(bytes, told) where bytes > told:
            "takes bodies over \(told.formatted()) bytes, the body limit the suite was told"
        case let .body(bytes, told):
            "behaves as a server with a body limit of about \(bytes.formatted()) bytes, where the suite was told \(told.formatted())"
        }
    }

    /// Tell the suite, or keep to what it was told.
    public var fix: String {
        switch self {
        case let .depth(_, told):
            "a depth limit of the server's own is legal: if so by design, tell the suite (--depth-limit and the server's limit); if not, refuse nesting deeper than \(told)"
        case let .body(_, told):
            "a body limit of the server's own is legal: if so by design, tell the suite (--body-limit and the server's limit); if not, take bodies up to \(told.formatted()) bytes"
        }
    }

    /// The requirement whose limit it is.
    public var breaks: [RequirementID] {
        switch self {
        case .depth: [.tlv2]
        case .body: [.frame2]
        }
    }

    /// How `decaf peer` is given this limit.
    public var option: String {
        switch self {
        case let .depth(depth, _): "--depth-limit \(depth)"
        case let .body(bytes, _): "--body-limit \(bytes)"
        }
    }

    /// `configuration` with this limit.
    func applied(to configuration: PeerConfiguration) -> PeerConfiguration {
        var limited = configuration
        switch self {
        case let .depth(depth, _): limited.depthLimit = depth
        case let .body(bytes, _): limited.bodyLimit = bytes
        }
        return limited
    }

    /// For a catalogued mistake that a server may also make on purpose, the option that tells the
    /// suite so: repeated tags allowed (TLV-3), a limit one away from the told one.
    static func telling(_ mistake: CodecMistake) -> String? {
        switch mistake {
        case .duplicateTagsAccepted: "or, if the server allows repeated tags by design (TLV-3 lets it), tell the suite: --allow-duplicate-tags"
        case .depthLimitOffByOne: "or, if the server's depth limit is one more by design, tell the suite: --depth-limit and the server's limit"
        case .bodyLimitOffByOne: "or, if the server's body limit is one byte less by design, tell the suite: --body-limit and the server's limit"
        default: nil
        }
    }
}
