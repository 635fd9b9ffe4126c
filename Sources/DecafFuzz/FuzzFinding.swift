import DecafConformance
import DecafDiagnosis
import DecafNIO
import DecafWire

/// One fault the fuzzer found, minimized: the input, what the brief makes of it, what the testee
/// did instead, and the requirement it breaks.
public struct FuzzFinding: Sendable {
    public var oracle: FuzzOracle
    /// What makes two findings the same fault: the oracle and what fired it (the testee's last
    /// words for a crash; the judge's reason and the brief's answer for a disagreement).
    public var signature: String
    /// The smallest input found that fires the same oracle with the same signature.
    public var input: [UInt8]
    /// The input as first found, and how it was made from its corpus entry.
    public var original: [UInt8]
    public var mutations: [FrameMutation]
    /// What the brief makes of the minimized input.
    public var outcome: DecodeOutcome
    /// The judge's verdict on the testee's answer to the minimized input.
    public var verdict: Verdict
    /// The last line the testee wrote to its standard error ("" if none).
    public var lastWords: String
    /// Inputs tried before this one was found.
    public var inputsBefore: Int
    public var elapsed: Duration
    /// What was fuzzed: a codec, a server or a client (with how the input was sent to it).
    public var target: FuzzTarget = .decoder
    /// The bytes and lines exchanged with the target over the minimized input, for the reports.
    public var transcript: [TranscriptEntry] = []

    /// The finding for a person, in one paragraph: what was sent, what happened, which rule it breaks.
    public var paragraph: String {
        let sent = "Sent \(input.count) bytes (\(Self.describe(input)))\(target.how), which the brief \(outcome)"
        let happened: String
        let told = !verdict.actual.isEmpty && !verdict.expected.isEmpty
        switch (oracle, target) {
        case (.crash, .decoder), (.crash, .client): happened = verdict.reason
        case (.crash, .server):
            let words = lastWords.isEmpty ? "" : "; it said last: \(lastWords)"
            happened = "the server then stopped answering a fresh handshake (on the input's connection: \(verdict.reason)\(words))"
        case (.hang, .decoder): happened = "the testee gave no answer in time, nor when asked again with twice the time, and was stopped"
        case (.hang, .client):
            happened = "the client neither acknowledged the DATA frame sent after it nor closed the connection in time, nor when asked again with twice the time"
        case (.hang, .server): happened = "the server neither answered nor closed the connection in time, nor when asked again with twice the time"
        case (.disagreement, .decoder):
            happened = "the testee \(verdict.actual.isEmpty ? "answered otherwise" : "answered \(verdict.actual)"): \(verdict.reason)"
        case (.disagreement, .client) where told: happened = "\(verdict.reason) (the brief expects \(verdict.expected); the client: \(verdict.actual))"
        case (.disagreement, .server) where told: happened = "the server answered with \(verdict.actual), where the brief expects \(verdict.expected)"
        case (.disagreement, _): happened = verdict.reason
        }
        var seen = Set<RequirementID>()
        // A defect breaks its own rules, whatever rule the input was about.
        let rule = ((defects.isEmpty ? nil : defects.flatMap(\.breaks)) ?? (verdict.requirements.isEmpty ? outcomeRequirements : verdict.requirements)).filter { seen.insert($0).inserted }
        let breaks = rule.isEmpty ? "" : " Breaks \(rule.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; "))."
        // The mutations made the input as first found; the input shown and saved may be its minimized form.
        let minimized = input == original || original.isEmpty ? "" : ", then minimized from \(original.count) to \(input.count) bytes"
        let made = mutations.isEmpty ? (minimized.isEmpty ? "" : " Minimized from \(original.count) to \(input.count) bytes.")
            : " Found as: \(mutations.map(\.description).joined(separator: "; "))\(minimized)."
        return "\(oracle.rawValue.uppercased()): \(sent); \(happened).\(breaks)\(made)\(defectSentence)"
    }

    /// The catalogued mistakes whose model gives the target's very answer to the input (one, or
    /// two together; `FindingDiagnosis`, `CodecMistake.cause`): the defect the finding is, said
    /// once. Empty when no model gives it: unexplained.
    public var defects: [any CataloguedMistake] = []

    /// The signature of a failure the catalogued `mistakes` give together: one finding per defect.
    public static func signature(of mistakes: [any CataloguedMistake]) -> String {
        defectPrefix + mistakes.map(\.name).joined(separator: separator)
    }

    private static let defectPrefix = "defect "
    private static let separator = " + "

    /// The names of the catalogued mistakes a signature names, if it names any.
    public static func defectNames(in signature: String) -> [String] {
        guard signature.hasPrefix(defectPrefix) else { return [] }
        return signature.dropFirst(defectPrefix.count).components(separatedBy: separator)
    }

    /// " Defect NAME: the server ...; fix: ...", each mistake once, or nothing.
    private var defectSentence: String {
        switch defects.count {
        case 0: return ""
        case 1: return " Defect \(defects[0].name): the \(target.role) \(defects[0].cause); fix: \(defects[0].fix)."
        default:
            let each = defects.map { "\($0.name): the \(target.role) \($0.cause); fix: \($0.fix)." }
            let names = defects.dropLast().map(\.name).joined(separator: ", ") + " and " + defects[defects.count - 1].name
            let fewer = defects.count == 2 ? "neither alone gives" : "no fewer of them give"
            return " Defects \(names) together (\(fewer) this answer). " + each.joined(separator: " ")
        }
    }

    private var outcomeRequirements: [RequirementID] {
        if case let .refused(_, requirement, _) = outcome { [requirement] } else { [] }
    }

    /// A frame's bytes in the protocol's words: its type, flags and body, or why it is no frame.
    static func describe(_ bytes: [UInt8]) -> String {
        guard let header = FrameHeader(decoding: bytes) else { return "shorter than a header" }
        var parts = ["\(header.messageType) frame", "body_length \(header.bodyLength)"]
        if header.compressType != .none { parts.append("compress_type \(header.compressType)") }
        if header.encryptType != .none { parts.append("encrypt_type \(header.encryptType)") }
        if bytes.count - FrameHeader.size != Int(header.bodyLength) { parts.append("\(bytes.count - FrameHeader.size) body bytes sent") }
        if let fields = FrameMutator.fields(of: bytes), !fields.isEmpty {
            let tree = tree(fields)
            parts.append("body " + (tree.count > 200 ? tree.prefix(200) + "..." : tree))
        }
        return parts.joined(separator: ", ")
    }

    /// A TLV tree in one line: `CONTAINER[CONTAINER[TEXT(empty)]], CUSTOM(3)`.
    static func tree(_ fields: [TLVField]) -> String {
        fields.map { field in
            let name = field.tag.label
            switch field.content {
            case let .fields(children): return "\(name)[\(tree(children))]"
            case let .bytes(value): return value.isEmpty ? "\(name)(empty)" : "\(name)(\(value.count))"
            }
        }.joined(separator: ", ")
    }
}
