/// Decaf's `down`: the network is down; new connections are reset as soon as they are accepted,
/// as when a server's host is unreachable. Connections already open are left as they are. The
/// proxy acts on it when it accepts; on a stream it does nothing.
public struct DownToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "down"

    /// The toxic; it has no attributes.
    public init() {}

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {}

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        [.bytes(bytes, at: now)]
    }
}

extension Toxic {
    /// Refuses connections and closes those open, as a proxy that is down.
    public static let down = Toxic(DownToxic())
}
