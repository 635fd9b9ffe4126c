/// toxiproxy's `reset_peer`: the first bytes that come are dropped and the connection is reset
/// (TCP RST, both sides) `timeout` after they came; all that comes after them is dropped too.
public struct ResetPeerToxic: ToxicKind {
    public static let type = "reset_peer"
    public static let mainAttribute: String? = "timeout"
    public var timeout: Duration

    public init(timeout: Duration) {
        self.timeout = timeout
    }

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(timeout: try attributes.duration("timeout", required: false))
    }

    public var attributes: [String: ToxicAttributeValue] { ["timeout": ToxicAttributes.milliseconds(timeout)] }
    public var deliversEveryByte: Bool { false }

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        guard !stage.shut else { return [] }
        stage.shut = true
        return [.reset(at: now + timeout)]
    }
}

extension Toxic {
    public static func resetPeer(_ timeout: Duration) -> Toxic { Toxic(ResetPeerToxic(timeout: timeout)) }
}
