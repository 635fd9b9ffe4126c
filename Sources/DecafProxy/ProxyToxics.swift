import DecafSession

/// The toxics of a proxy, in the order they apply, each on one stream (toxiproxy's `stream`).
public struct ProxyToxics: Hashable, Sendable {
    public private(set) var toxics: [ProxyToxic] = []

    /// `upstream` on what the client sends the server, `downstream` on what the server sends.
    public init(upstream: [Toxic] = [], downstream: [Toxic] = []) {
        for toxic in upstream { add(toxic, stream: .upstream) }
        for toxic in downstream { add(toxic, stream: .downstream) }
    }

    /// The toxics on `stream`, in order.
    public func on(_ stream: ProxyStream) -> [ActiveToxic] {
        toxics.filter { $0.stream == stream }.map(\.active)
    }

    /// Whether any toxic on either stream is `down`.
    public var isDown: Bool { toxics.contains { $0.toxic == .down } }

    /// Adds `toxic` after the others, named as toxiproxy names it, `TYPE_STREAM`, with a number
    /// after it when that is taken.
    public mutating func add(_ toxic: Toxic, stream: ProxyStream, toxicity: Double = 1) {
        let base = "\(ToxicCatalog.type(of: toxic))_\(stream.rawValue)"
        var name = base
        var number = 2
        while toxics.contains(where: { $0.name == name }) {
            name = "\(base)_\(number)"
            number += 1
        }
        toxics.append(ProxyToxic(name: name, stream: stream, toxic: toxic, toxicity: toxicity))
    }

    /// These toxics followed by `other`'s.
    public func appending(_ other: ProxyToxics) -> ProxyToxics {
        var all = self
        for toxic in other.toxics { all.add(toxic.toxic, stream: toxic.stream, toxicity: toxic.toxicity) }
        return all
    }
}
