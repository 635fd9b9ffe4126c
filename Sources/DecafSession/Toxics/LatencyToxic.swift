/// toxiproxy's `latency`: every chunk waits `latency`, plus or minus up to `jitter`; order is kept.
public struct LatencyToxic: ToxicKind {
    public static let type = "latency"
    public static let mainAttribute: String? = "latency"
    public var latency: Duration
    public var jitter: Duration

    public init(latency: Duration, jitter: Duration = .zero) {
        self.latency = latency
        self.jitter = jitter
    }

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(latency: try attributes.duration("latency"), jitter: try attributes.duration("jitter", required: false))
    }

    public var attributes: [String: ToxicAttributeValue] {
        ["latency": ToxicAttributes.milliseconds(latency), "jitter": ToxicAttributes.milliseconds(jitter)]
    }

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        let spread = jitter > .zero ? jitter * Double.random(in: -1...1, using: &context.random) : .zero
        return stage.keepingOrder(bytes, at: now + max(.zero, latency + spread))
    }
}

extension Toxic {
    public static func latency(_ latency: Duration, jitter: Duration) -> Toxic { Toxic(LatencyToxic(latency: latency, jitter: jitter)) }
}
