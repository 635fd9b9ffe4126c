/// A toxic on whole frames that acts on each with `probability`, its one attribute, and so never
/// delivers every byte as it came (`duplicate_frames`, `corrupt_frames`, `cut_frames`).
public protocol FrameProbabilityToxic: ToxicKind {
    var probability: Double { get }
    init(probability: Double)
}

extension FrameProbabilityToxic {
    public static var mainAttribute: String? { "probability" }
    public static var isOnFrames: Bool { true }

    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        self.init(probability: try attributes.probability("probability"))
    }

    public var attributes: [String: ToxicAttributeValue] { ["probability": .number(probability)] }
    public var deliversEveryByte: Bool { false }
}
