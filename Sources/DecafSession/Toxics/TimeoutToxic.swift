/// toxiproxy's `timeout`: nothing gets through; the connection is closed after `timeout` (never,
/// if zero), and when the toxic is removed, as toxiproxy does.
public struct TimeoutToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "timeout"
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute: String? = "timeout"
    /// How long data is held back before the close; 0 holds it for ever.
    public var timeout: Duration

    /// Holds data back, closing after `timeout` (0: never).
    public init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(timeout: try attributes.duration("timeout"))
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] { ["timeout": ToxicAttributes.milliseconds(timeout)] }
    /// It loses, adds or changes bytes: the proxy's accounting of bytes does not expect every byte through.
    public var deliversEveryByte: Bool { false }
    /// Taking it away closes the connections it held, as toxiproxy's timeout does.
    public var closesWhenRemoved: Bool { true }

    /// The cut it schedules when a connection opens (or it is added) at `now`.
    public func cut(openedAt now: Duration) -> ToxicPipe.Passage? {
        timeout > .zero ? .close(at: now + timeout) : nil
    }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] { [] }
}

extension Toxic {
    /// Holds data back, and closes after `timeout` (0: never), as toxiproxy's timeout.
    public static func timeout(_ timeout: Duration) -> Toxic { Toxic(TimeoutToxic(timeout: timeout)) }
}
