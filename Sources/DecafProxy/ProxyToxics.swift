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

    /// Adds `toxic` after the others, named `name` or, without one, as toxiproxy names it,
    /// `TYPE_STREAM`, with a number after it when that is taken; nil when `name` is taken.
    @discardableResult
    public mutating func add(_ toxic: Toxic, stream: ProxyStream, toxicity: Double = 1, name: String? = nil) -> ProxyToxic? {
        if let name, self[name] != nil { return nil }
        let base = "\(ToxicCatalog.type(of: toxic))_\(stream.rawValue)"
        var chosen = name ?? base
        var number = 2
        while self[chosen] != nil {
            chosen = "\(base)_\(number)"
            number += 1
        }
        let added = ProxyToxic(name: chosen, stream: stream, toxic: toxic, toxicity: toxicity)
        toxics.append(added)
        return added
    }

    /// The toxic named `name`; setting it replaces that toxic in place, or, set to nil, removes it.
    public subscript(name: String) -> ProxyToxic? {
        get { toxics.first { $0.name == name } }
        set {
            guard let index = toxics.firstIndex(where: { $0.name == name }) else { return }
            if let newValue { toxics[index] = newValue } else { toxics.remove(at: index) }
        }
    }

    /// These toxics followed by `other`'s.
    public func appending(_ other: ProxyToxics) -> ProxyToxics {
        var all = self
        for toxic in other.toxics { all.add(toxic.toxic, stream: toxic.stream, toxicity: toxic.toxicity) }
        return all
    }
}
