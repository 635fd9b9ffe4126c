/// Decaf's `blackhole`: nothing gets through and the connection stays open, as through a dead NAT
/// or a handover.
public struct BlackholeToxic: ToxicKind {
    public static let type = "blackhole"

    public init() {}

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {}

    public var deliversEveryByte: Bool { false }

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] { [] }
}

extension Toxic {
    public static let blackhole = Toxic(BlackholeToxic())
}
