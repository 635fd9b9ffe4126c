/// What a finding was found in: a codec asked about one input, a server sent it on a connection
/// after a handshake (as `plan` says), or a client sent it by the suite's server after the
/// handshake, cut into writes of `split` bytes.
public enum FuzzTarget: Hashable, Sendable {
    case decoder
    case server(ServerCase.Plan)
    case client(split: [Int])

    /// How the input reached the target, in words ("" for a codec).
    public var how: String {
        switch self {
        case .decoder: ""
        case let .server(plan): " after a handshake\(plan.dataFirst ? " and a DATA frame" : "")\(Self.writes(plan.split))"
        case let .client(split): " from the server after the handshake\(Self.writes(split))"
        }
    }

    /// What the target is called in a finding's words.
    public var role: String {
        switch self {
        case .decoder: "testee"
        case .server: "server"
        case .client: "client"
        }
    }

    private static func writes(_ split: [Int]) -> String {
        split.isEmpty ? "" : " in \(split.count + 1) writes"
    }
}
