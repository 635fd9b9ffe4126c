/// toxiproxy's `bandwidth`: at most `bytesPerSecond` get through; 0 is no limit, as in toxiproxy.
/// Its attribute `rate` is in KB/s.
public struct BandwidthToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "bandwidth"
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute: String? = "rate"
    /// The rate bytes get through at.
    public var bytesPerSecond: Int

    /// Bytes through at `bytesPerSecond`.
    public init(bytesPerSecond: Int) {
        self.bytesPerSecond = bytesPerSecond
    }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(bytesPerSecond: try attributes.count("rate", 1...1_000_000_000) * 1024)
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] { ["rate": .number(Double(bytesPerSecond) / 1024)] }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        // No rate: no limit, as toxiproxy takes a zero.
        guard bytesPerSecond > 0 else { return stage.keepingOrder(bytes, at: now) }
        let start = max(now, stage.last)
        stage.last = start + .nanoseconds(Int64(bytes.count) * 1_000_000_000 / Int64(bytesPerSecond))
        return [.bytes(bytes, at: stage.last)]
    }
}

extension Toxic {
    /// Bytes through at `bytesPerSecond` (toxiproxy's `bandwidth`, `rate` in KB/s).
    public static func bandwidth(bytesPerSecond: Int) -> Toxic { Toxic(BandwidthToxic(bytesPerSecond: bytesPerSecond)) }
}
