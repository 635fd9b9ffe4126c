/// toxiproxy's `slow_close`: when the other side closes, the close comes `delay` later.
public struct SlowCloseToxic: ToxicKind {
    public static let type = "slow_close"
    public static let mainAttribute: String? = "delay"
    public var delay: Duration

    public init(delay: Duration) {
        self.delay = delay
    }

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(delay: try attributes.duration("delay"))
    }

    public var attributes: [String: ToxicAttributeValue] { ["delay": ToxicAttributes.milliseconds(delay)] }

    public var closeDelay: Duration { delay }

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        [.bytes(bytes, at: now)]
    }
}

extension Toxic {
    public static func slowClose(_ delay: Duration) -> Toxic { Toxic(SlowCloseToxic(delay: delay)) }
}
