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

    /// The toxic named `name`.
    public func named(_ name: String) -> ProxyToxic? { toxics.first { $0.name == name } }

    /// Adds `toxic` after the others, named `name` or, without one, toxiproxy's `TYPE_STREAM`
    /// (with a number after it when that is taken). Returns what was added, or nil when `name` is
    /// taken.
    @discardableResult
    public mutating func add(_ toxic: Toxic, stream: ProxyStream, toxicity: Double = 1, name: String? = nil) -> ProxyToxic? {
        let base = "\(ToxicCatalog.type(of: toxic))_\(stream.rawValue)"
        var chosen = name ?? base
        if name == nil {
            var number = 2
            while named(chosen) != nil {
                chosen = "\(base)_\(number)"
                number += 1
            }
        } else if named(chosen) != nil {
            return nil
        }
        let added = ProxyToxic(name: chosen, stream: stream, toxic: toxic, toxicity: toxicity)
        toxics.append(added)
        return added
    }

    /// Puts `toxic` in place of the one with its name; false if there is none.
    public mutating func update(_ toxic: ProxyToxic) -> Bool {
        guard let index = toxics.firstIndex(where: { $0.name == toxic.name }) else { return false }
        toxics[index] = toxic
        return true
    }

    /// Removes the toxic named `name`; false if there is none.
    public mutating func remove(named name: String) -> Bool {
        guard let index = toxics.firstIndex(where: { $0.name == name }) else { return false }
        toxics.remove(at: index)
        return true
    }

    /// These toxics followed by `other`'s.
    public func appending(_ other: ProxyToxics) -> ProxyToxics {
        var all = self
        for toxic in other.toxics { all.add(toxic.toxic, stream: toxic.stream, toxicity: toxic.toxicity) }
        return all
    }
}
