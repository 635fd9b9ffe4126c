/// What a finding was found in: a codec asked about one input, a server sent it on a connection
/// after a handshake (as `plan` says), or a client sent it by the suite's server after the
/// handshake, cut into writes of `split` bytes, after the `earlier` inputs the same client was
/// sent first (each in a case of its own), when it needs them.
public enum FuzzTarget: Hashable, Sendable {
    case decoder
    case server(ServerCase.Plan)
    case client(split: [Int], earlier: [[UInt8]] = [])

    /// How the input reached the target, in words ("" for a codec).
    public var how: String {
        switch self {
        case .decoder: ""
        case let .server(plan): " after a handshake\(plan.dataFirst ? " and a DATA frame" : "")\(Self.writes(plan.split))"
        case let .client(split, earlier):
            " from the server after the handshake\(Self.writes(split))" + (earlier.isEmpty ? "" : ", to a client sent \(Self.inputs(earlier)) before it")
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

    /// "1 input (39 bytes)", "2 inputs (39, 52 bytes)".
    private static func inputs(_ earlier: [[UInt8]]) -> String {
        "\(earlier.count) input\(earlier.count == 1 ? "" : "s") (\(earlier.map { String($0.count) }.joined(separator: ", ")) bytes)"
    }

    private static func writes(_ split: [Int]) -> String {
        split.isEmpty ? "" : " in \(split.count + 1) writes"
    }
}
