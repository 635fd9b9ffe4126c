/// toxiproxy's `slow_close`: when the other side closes, the close comes `delay` later.
public struct SlowCloseToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "slow_close"
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute: String? = "delay"
    /// How much later the close gets through.
    public var delay: Duration

    /// Holds the close back by `delay`.
    public init(delay: Duration) {
        self.delay = delay
    }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(delay: try attributes.duration("delay"))
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] { ["delay": ToxicAttributes.milliseconds(delay)] }

    /// How much later the end of a stream gets through.
    public var closeDelay: Duration { delay }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        [.bytes(bytes, at: now)]
    }
}

extension Toxic {
    /// Holds a connection's close back by `delay`.
    public static func slowClose(_ delay: Duration) -> Toxic { Toxic(SlowCloseToxic(delay: delay)) }
}
