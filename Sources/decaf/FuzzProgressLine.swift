import DecafDiagnosis
import DecafFuzz
import DecafDissect
import Foundation
import Synchronization

/// The progress of a campaign on standard error (inputs a second, findings, distinct answers):
/// on a terminal a live line, rewritten in place; otherwise (CI, a file) a line of its own every
/// `interval`, so a campaign can be watched wherever its output goes. And the summary it ends with.
final class FuzzProgressLine: Sendable {
    /// How often a line is written when standard error is not a terminal.
    static let interval = Duration.seconds(10)

    private let isTerminal = isatty(2) == 1
    /// The target (`decoder`, `server`, `client`), as the summary names it.
    private let target: String
    /// When the last line of its own was written (the campaign's start before the first).
    private let written = Mutex(ContinuousClock.now)
    /// Whether the campaign's note (`FuzzProgress.note`) has been said.
    private let noted = Mutex(false)

    init(target: String) {
        self.target = target
    }

    @Sendable func show(_ state: FuzzProgress) {
        if let note = state.note, noted.withLock({ said in defer { said = true }; return !said }) {
            FileHandleOutput.standardError.write((isTerminal ? "\r\u{1B}[K" : "") + note + "\n")
        }
        guard !isTerminal else {
            FileHandleOutput.standardError.write("\r\u{1B}[K" + Self.line(state))
            return
        }
        let due = written.withLock { last in
            guard ContinuousClock.now - last >= Self.interval else { return false }
            last = .now
            return true
        }
        if due { FileHandleOutput.standardError.write("fuzz \(target): \(Self.line(state))\n") }
    }

    func clear() {
        guard isTerminal else { return }
        FileHandleOutput.standardError.write("\r\u{1B}[K")
    }

    static func line(_ state: FuzzProgress) -> String {
        // A slow target's rate as it is (0.04/s), not rounded to 0.
        let rate = state.inputsPerSecond
        let perSecond = rate >= 10 || rate == 0 ? "\(Int(rate.rounded()))" : String(format: rate >= 1 ? "%.1f" : "%.2g", rate)
        return "\(state.inputs) inputs in \(String(format: "%.1f", state.elapsed / .seconds(1))) s (\(perSecond)/s), "
            + "\(state.findings) finding\(state.findings == 1 ? "" : "s"), \(state.distinctAnswers) distinct answers"
            + (state.edges.map { ", \($0) edges (\(state.corpusGrowth) inputs kept)" } ?? "")
            + (state.imported > 0 ? ", \(state.imported) from other fuzzers" : "")
    }

    /// "2 defects explain 3 of 4 findings: checksum-little-endian (finding 1, and 812 more
    /// inputs), ...": the line the end of a campaign with findings opens with.
    static func defects(_ diagnosis: Diagnosis, of findings: [FuzzFinding], in state: FuzzProgress) -> String {
        let ids = findings.enumerated().map { FuzzReport.id(of: $1, at: $0) }
        let named = diagnosis.defects.map { defect in
            let explained = ids.indices.filter { defect.explains.contains(ids[$0]) }
            let more = explained.reduce(0) { $0 + (state.repeats[findings[$1].signature] ?? 0) }
            let numbers = explained.map { "\($0 + 1)" }.joined(separator: ", ")
            return "\(defect.name) (finding\(explained.count == 1 ? "" : "s") \(numbers)\(more > 0 ? ", and \(more) more input\(more == 1 ? "" : "s")" : ""))"
        }
        let headline = diagnosis.headline.replacingOccurrences(of: "failure", with: "finding")
        return headline + (named.isEmpty ? "" : ": " + named.joined(separator: ", "))
    }

    /// The last line of a campaign against `target` (`decoder`, `server`, `client`).
    static func summary(_ state: FuzzProgress, of target: String, findings directory: String) -> String {
        let end = state.interrupted ? "; INTERRUPTED" : state.cutShort ? "; cut short after its --duration and twice --timeout, the answer awaited given up" : ""
        let saved = state.findings > 0 ? "; findings in \(directory)/" : ""
        let blind = state.note != nil ? "; no coverage (the \(target == "decoder" ? "testee" : target) is not instrumented)" : ""
        let exits = state.testeeExits > 0 ? "; the testee exited by itself \(state.testeeExits) time\(state.testeeExits == 1 ? "" : "s")" : ""
        return "fuzz \(target): " + line(state) + blind + exits + saved + end
    }
}
