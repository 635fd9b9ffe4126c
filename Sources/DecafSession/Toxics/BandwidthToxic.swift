/// toxiproxy's `bandwidth`: at most `bytesPerSecond` get through; 0 is no limit, as in toxiproxy.
/// Its attribute `rate` is in KB/s.
public struct BandwidthToxic: ToxicKind {
    public static let type = "bandwidth"
    public static let mainAttribute: String? = "rate"
    public var bytesPerSecond: Int

    public init(bytesPerSecond: Int) {
        self.bytesPerSecond = bytesPerSecond
    }

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(bytesPerSecond: try attributes.count("rate", 1...1_000_000_000) * 1024)
    }

    public var attributes: [String: ToxicAttributeValue] { ["rate": .number(Double(bytesPerSecond) / 1024)] }

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        // No rate: no limit, as toxiproxy takes a zero.
        guard bytesPerSecond > 0 else { return stage.keepingOrder(bytes, at: now) }
        let start = max(now, stage.last)
        stage.last = start + .nanoseconds(Int64(bytes.count) * 1_000_000_000 / Int64(bytesPerSecond))
        return [.bytes(bytes, at: stage.last)]
    }
}

extension Toxic {
    public static func bandwidth(bytesPerSecond: Int) -> Toxic { Toxic(BandwidthToxic(bytesPerSecond: bytesPerSecond)) }
}
