/// toxiproxy's `limit_data`: the connection is closed once `bytes` bytes have got through.
public struct LimitDataToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "limit_data"
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute: String? = "bytes"
    /// How many bytes get through before the close.
    public var bytes: Int

    /// Closes once `bytes` have got through.
    public init(bytes: Int) {
        self.bytes = bytes
    }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(bytes: try attributes.count("bytes", 0...Int.max))
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] { ["bytes": .number(Double(bytes))] }
    /// It loses, adds or changes bytes: the proxy's accounting of bytes does not expect every byte through.
    public var deliversEveryByte: Bool { false }

    /// What becomes of a chunk (or a whole frame) it acts on.
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
    /// Closes the connection once `bytes` have got through.
    public static func limitData(_ bytes: Int) -> Toxic { Toxic(LimitDataToxic(bytes: bytes)) }
}
