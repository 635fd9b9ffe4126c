/// Which way a toxic acts, with toxiproxy's names: `upstream` on what the client sends the server,
/// `downstream` on what the server sends the client.
public enum ProxyStream: String, CaseIterable, Hashable, Sendable {
    case upstream, downstream
}
