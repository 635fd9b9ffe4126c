/// What a finding was found in: a codec asked about one input, or a server sent it on a
/// connection after a handshake, as `plan` says.
public enum FuzzTarget: Hashable, Sendable {
    case decoder
    case server(ServerCase.Plan)

    /// How the input reached a server, in words ("" for a codec).
    public var how: String {
        guard case let .server(plan) = self else { return "" }
        let writes = plan.split.isEmpty ? "" : " in \(plan.split.count + 1) writes"
        return " after a handshake\(plan.dataFirst ? " and a DATA frame" : "")\(writes)"
    }
}
