import DecafSession

/// The toxics of a proxy, per direction: `upstream` acts on what the client sends the server,
/// `downstream` on what the server sends the client (toxiproxy's `stream`).
public struct ProxyToxics: Hashable, Sendable {
    public var upstream: [Toxic]
    public var downstream: [Toxic]

    public init(upstream: [Toxic] = [], downstream: [Toxic] = []) {
        self.upstream = upstream
        self.downstream = downstream
    }
}
