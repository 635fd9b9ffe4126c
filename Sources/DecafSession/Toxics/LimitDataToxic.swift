/// toxiproxy's `limit_data`: the connection is closed once `bytes` bytes have got through.
public struct LimitDataToxic: ToxicKind {
    public static let type = "limit_data"
    public static let mainAttribute: String? = "bytes"
    public var bytes: Int

    public init(bytes: Int) {
        self.bytes = bytes
    }

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(bytes: try attributes.count("bytes", 0...Int.max))
    }

    public var attributes: [String: ToxicAttributeValue] { ["bytes": .number(Double(bytes))] }
    public var deliversEveryByte: Bool { false }

    public func pass(_ chunk: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        guard !stage.shut else { return [] }
        let allowed = min(chunk.count, bytes - stage.passed)
        stage.passed += allowed
        var out: [ToxicPipe.Passage] = allowed > 0 ? [.bytes(Array(chunk.prefix(allowed)), at: now)] : []
        if stage.passed >= bytes {
            stage.shut = true
            out.append(.close(at: now))
        }
        return out
    }
}

extension Toxic {
    public static func limitData(_ bytes: Int) -> Toxic { Toxic(LimitDataToxic(bytes: bytes)) }
}
