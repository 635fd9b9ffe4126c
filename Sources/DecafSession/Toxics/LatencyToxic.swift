/// toxiproxy's `latency`: every chunk waits `latency`, plus or minus up to `jitter`; order is kept.
public struct LatencyToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "latency"
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute: String? = "latency"
    /// The delay of every chunk.
    public var latency: Duration
    /// The most the delay varies either way.
    public var jitter: Duration

    /// Delays each chunk by `latency`, give or take `jitter`.
    public init(latency: Duration, jitter: Duration = .zero) {
        self.latency = latency
        self.jitter = jitter
    }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(latency: try attributes.duration("latency"), jitter: try attributes.duration("jitter", required: false))
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] {
        ["latency": ToxicAttributes.milliseconds(latency), "jitter": ToxicAttributes.milliseconds(jitter)]
    }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        let spread = jitter > .zero ? jitter * Double.random(in: -1...1, using: &context.random) : .zero
        return stage.keepingOrder(bytes, at: now + max(.zero, latency + spread))
    }
}

extension Toxic {
    /// Delays each chunk by `latency`, give or take `jitter`, in order.
    public static func latency(_ latency: Duration, jitter: Duration) -> Toxic { Toxic(LatencyToxic(latency: latency, jitter: jitter)) }
}
