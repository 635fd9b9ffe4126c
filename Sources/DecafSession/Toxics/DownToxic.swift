/// Decaf's `down`: the network is down; new connections are reset as soon as they are accepted,
/// as when a server's host is unreachable. Connections already open are left as they are. The
/// proxy acts on it when it accepts; on a stream it does nothing.
public struct DownToxic: ToxicKind {
    public static let type = "down"

    public init() {}

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {}

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        [.bytes(bytes, at: now)]
    }
}

extension Toxic {
    public static let down = Toxic(DownToxic())
}
