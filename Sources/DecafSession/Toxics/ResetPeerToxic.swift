/// toxiproxy's `reset_peer`: the first bytes that come are dropped and the connection is reset
/// (TCP RST, both sides) `timeout` after they came; all that comes after them is dropped too.
public struct ResetPeerToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "reset_peer"
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute: String? = "timeout"
    /// How long after it begins the connection is reset.
    public var timeout: Duration

    /// Resets the connection after `timeout`.
    public init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(timeout: try attributes.duration("timeout", required: false))
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] { ["timeout": ToxicAttributes.milliseconds(timeout)] }
    /// It loses, adds or changes bytes: the proxy's accounting of bytes does not expect every byte through.
    public var deliversEveryByte: Bool { false }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        guard !stage.shut else { return [] }
        stage.shut = true
        return [.reset(at: now + timeout)]
    }
}

extension Toxic {
    /// Resets the connection (TCP RST) after `timeout`.
    public static func resetPeer(_ timeout: Duration) -> Toxic { Toxic(ResetPeerToxic(timeout: timeout)) }
}
