/// toxiproxy's `noop`: nothing at all, a placeholder its clients may add.
public struct NoopToxic: ToxicKind {
    public static let type = "noop"

    public init() {}

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {}

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        [.bytes(bytes, at: now)]
    }
}

extension Toxic {
    public static let noop = Toxic(NoopToxic())
}
