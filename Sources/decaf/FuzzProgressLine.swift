import DecafFuzz
import DecafDissect
import Foundation

/// The live line of a campaign on a terminal's standard error (inputs a second, findings,
/// distinct answers), and the summary it ends with.
struct FuzzProgressLine: Sendable {
    private let isShown = isatty(2) == 1

    @Sendable func show(_ state: FuzzProgress) {
        guard isShown else { return }
        FileHandleOutput.standardError.write("\r\u{1B}[K" + Self.line(state))
    }

    func clear() {
        guard isShown else { return }
        FileHandleOutput.standardError.write("\r\u{1B}[K")
    }

    static func line(_ state: FuzzProgress) -> String {
        return "\(state.inputs) inputs in \(String(format: "%.1f", state.elapsed / .seconds(1))) s (\(Int(state.inputsPerSecond.rounded()))/s), "
            + "\(state.findings) finding\(state.findings == 1 ? "" : "s"), \(state.distinctAnswers) distinct answers"
    }

    /// The last line of a campaign against `target` (`decoder`, `server`, `client`).
    static func summary(_ state: FuzzProgress, of target: String, findings directory: String) -> String {
        let end = state.interrupted ? "; INTERRUPTED" : ""
        let saved = state.findings > 0 ? "; findings in \(directory)/" : ""
        return "fuzz \(target): " + line(state) + saved + end
    }
}
