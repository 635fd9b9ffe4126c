/// A toxic on whole frames that acts on each with `probability`, its one attribute, and so never
/// delivers every byte as it came (`duplicate_frames`, `corrupt_frames`, `cut_frames`).
public protocol FrameProbabilityToxic: ToxicKind {
    /// The chance, 0 to 1, that the toxic acts on a frame.
    var probability: Double { get }
    /// The toxic acting on a frame with `probability`.
    init(probability: Double)
}

extension FrameProbabilityToxic {
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static var mainAttribute: String? { "probability" }
    /// It acts on whole frames: the pipe cuts the stream at frame boundaries first.
    public static var isOnFrames: Bool { true }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(probability: try attributes.probability("probability"))
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] { ["probability": .number(probability)] }
    /// It loses, adds or changes bytes: the proxy's accounting of bytes does not expect every byte through.
    public var deliversEveryByte: Bool { false }
}
