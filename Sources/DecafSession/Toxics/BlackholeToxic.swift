/// Decaf's `blackhole`: nothing gets through and the connection stays open, as through a dead NAT
/// or a handover.
public struct BlackholeToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "blackhole"

    /// The toxic; it has no attributes.
    public init() {}

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {}

    /// It loses, adds or changes bytes: the proxy's accounting of bytes does not expect every byte through.
    public var deliversEveryByte: Bool { false }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] { [] }
}

extension Toxic {
    /// Swallows every byte and keeps the connection open.
    public static let blackhole = Toxic(BlackholeToxic())
}
