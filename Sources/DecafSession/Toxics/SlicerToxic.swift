/// toxiproxy's `slicer`: chunks are cut into slices of `averageSize` bytes, give or take
/// `sizeVariation`, each `delay` after the one before; an `averageSize` of 0 leaves chunks whole.
/// Its `delay` attribute is in microseconds, as in toxiproxy.
public struct SlicerToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "slicer"
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute: String? = "average_size"
    /// The average size of a slice, in bytes.
    public var averageSize: Int
    /// How much a slice's size varies either way.
    public var sizeVariation: Int
    /// The pause between slices.
    public var delay: Duration

    /// Slices chunks to about `averageSize` bytes (give or take `sizeVariation`), `delay` apart.
    public init(averageSize: Int, sizeVariation: Int = 0, delay: Duration = .zero) {
        self.averageSize = averageSize
        self.sizeVariation = sizeVariation
        self.delay = delay
    }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(averageSize: try attributes.count("average_size", 1...(1 << 30)), sizeVariation: try attributes.count("size_variation", 0...(1 << 30), required: false),
                  delay: try attributes.duration("delay", required: false))
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] {
        ["average_size": .number(Double(averageSize)), "size_variation": .number(Double(sizeVariation)), "delay": .number(delay / .microseconds(1))]
    }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        // No slice size: whole chunks, as toxiproxy takes a zero.
        guard averageSize > 0 else { return stage.keepingOrder(bytes, at: now) }
        var slices: [ToxicPipe.Passage] = []
        var offset = 0
        var at = max(now, stage.last)
        while offset < bytes.count {
            let size = max(1, averageSize + (sizeVariation > 0 ? Int.random(in: -sizeVariation...sizeVariation, using: &context.random) : 0))
            let end = min(bytes.count, offset + size)
            if !slices.isEmpty { at += delay }
            slices.append(.bytes(Array(bytes[offset..<end]), at: at))
            offset = end
        }
        stage.last = at
        return slices
    }
}

extension Toxic {
    /// Slices each chunk into smaller writes, `delay` apart.
    public static func slicer(averageSize: Int, sizeVariation: Int, delay: Duration) -> Toxic {
        Toxic(SlicerToxic(averageSize: averageSize, sizeVariation: sizeVariation, delay: delay))
    }
}
