import DecafFuzz
import DecafVectors
import DecafWire

/// A finding as `decaf fuzz` saves it beside its bytes: enough for a person to read and for
/// `decaf fuzz replay` to send the same input under the same options.
struct FuzzFindingJSON: Codable {
    var oracle: FuzzOracle
    var summary: String
    var signature: String
    /// The catalogued mistakes whose model gives the target's answer, when the finding was made
    /// (the cause, alone or two together); none: unexplained then.
    var defects: [String]?
    var requirements: [String]
    var brief: String
    var reason: String
    var expected: String
    var actual: String
    var lastWords: String?
    var hex: String
    var length: Int
    var original: String
    var mutations: [String]
    var inputsBefore: Int
    var seconds: Double
    var seed: UInt64
    var options: FrameVectorFileJSON.Options
    /// The codec's command line, `--server` and the server's address, or `--client` and the
    /// client testee's command line.
    var testee: [String]
    /// For a server or a client: the sizes of the writes the input was cut into (none: one
    /// write); for a server, whether a DATA frame went before it.
    var split: [Int]?
    var dataFirst: Bool?
    /// For a client: the inputs, in hex, it was sent before this one (each whole, in a case of its
    /// own) for the fault to show; none when it shows alone.
    var earlier: [String]?

    init(_ finding: FuzzFinding, seed: UInt64, options: DecodeOptions, testee: [String]) {
        oracle = finding.oracle
        summary = finding.paragraph
        signature = finding.signature
        defects = finding.defects.isEmpty ? nil : finding.defects.map(\.name)
        requirements = finding.verdict.requirements.map(\.rawValue)
        brief = finding.outcome.description
        reason = finding.verdict.reason
        expected = finding.verdict.expected
        actual = finding.verdict.actual
        lastWords = finding.lastWords.isEmpty ? nil : finding.lastWords
        hex = Hex.string(finding.input)
        length = finding.input.count
        original = Hex.string(finding.original)
        mutations = finding.mutations.map(\.description)
        inputsBefore = finding.inputsBefore
        seconds = (finding.elapsed / .milliseconds(1)).rounded() / 1000
        self.seed = seed
        self.options = FrameVectorFileJSON.Options(options)
        self.testee = testee
        switch finding.target {
        case .decoder: break
        case let .server(plan):
            split = plan.split
            dataFirst = plan.dataFirst
        case let .client(cuts, before):
            split = cuts
            earlier = before.isEmpty ? nil : before.map(Hex.string)
        }
    }

    /// What a client was sent before the input.
    var earlierInputs: [[UInt8]] { (earlier ?? []).compactMap(Hex.bytes) }

    /// How the input was sent to a server.
    var plan: ServerCase.Plan { ServerCase.Plan(split: split ?? [], dataFirst: dataFirst ?? false) }
}
