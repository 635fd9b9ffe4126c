/// toxiproxy's `noop`: nothing at all, a placeholder its clients may add.
public struct NoopToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "noop"

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
    /// Lets everything through as it came.
    public static let noop = Toxic(NoopToxic())
}
