/// toxiproxy's `timeout`: nothing gets through; the connection is closed after `timeout` (never,
/// if zero), and when the toxic is removed, as toxiproxy does.
public struct TimeoutToxic: ToxicKind {
    public static let type = "timeout"
    public static let mainAttribute: String? = "timeout"
    public var timeout: Duration

    public init(timeout: Duration) {
        self.timeout = timeout
    }

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(timeout: try attributes.duration("timeout"))
    }

    public var attributes: [String: ToxicAttributeValue] { ["timeout": ToxicAttributes.milliseconds(timeout)] }
    public var deliversEveryByte: Bool { false }
    public var closesWhenRemoved: Bool { true }

    public func cut(openedAt now: Duration) -> ToxicPipe.Passage? {
        timeout > .zero ? .close(at: now + timeout) : nil
    }

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] { [] }
}

extension Toxic {
    public static func timeout(_ timeout: Duration) -> Toxic { Toxic(TimeoutToxic(timeout: timeout)) }
}
