import DecafWire

/// Decaf's `drop_frames`: whole frames are dropped with `probability`; only frames of `types`
/// when given (`types=ack+data`, such as only ACKs).
public struct DropFramesToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "drop_frames"
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute: String? = "probability"
    /// It acts on whole frames: the pipe cuts the stream at frame boundaries first.
    public static let isOnFrames = true
    /// The chance, 0 to 1, that a frame is dropped.
    public var probability: Double
    /// The message types it drops; nil for every type.
    public var types: Set<MessageType>?

    /// Drops a frame of `types` (nil: any) with `probability`.
    public init(probability: Double, types: Set<MessageType>? = nil) {
        self.probability = probability
        self.types = types
    }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        let probability = try attributes.probability("probability")
        var types: Set<MessageType>?
        if let names = attributes.take("types") {
            types = []
            let known = (0...255).map { MessageType(rawValue: $0) }.filter(\.isKnown)
            for name in names.split(separator: "+", omittingEmptySubsequences: false) {
                guard let type = known.first(where: { $0.name?.lowercased() == name.lowercased() }) ?? UInt16(name).map(MessageType.init) else {
                    throw ToxicProblem("types: '\(name)' is not a message type; give \(known.map(\.description).joined(separator: ", ")) or a number, joined with +")
                }
                types?.insert(type)
            }
        }
        self.init(probability: probability, types: types)
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] {
        var attributes: [String: ToxicAttributeValue] = ["probability": .number(probability)]
        if let types {
            attributes["types"] = .text(types.sorted { $0.rawValue < $1.rawValue }.map { $0.name?.lowercased() ?? String($0.rawValue) }.joined(separator: "+"))
        }
        return attributes
    }

    /// It loses, adds or changes bytes: the proxy's accounting of bytes does not expect every byte through.
    public var deliversEveryByte: Bool { false }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        let type = FrameHeader(decoding: bytes)?.messageType
        guard framed, types.map({ chosenTypes in type.map(chosenTypes.contains) ?? false }) ?? true, context.chosen(probability) else { return [.bytes(bytes, at: now)] }
        context.frames.dropped += 1
        return []
    }
}

extension Toxic {
    /// Drops whole frames of `types` (nil: any) with `probability`, the stream kept in step.
    public static func dropFrames(probability: Double, types: Set<MessageType>?) -> Toxic { Toxic(DropFramesToxic(probability: probability, types: types)) }
}
