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
        // A slow target's rate as it is (0.04/s), not rounded to 0.
        let rate = state.inputsPerSecond
        let perSecond = rate >= 10 || rate == 0 ? "\(Int(rate.rounded()))" : String(format: rate >= 1 ? "%.1f" : "%.2g", rate)
        return "\(state.inputs) inputs in \(String(format: "%.1f", state.elapsed / .seconds(1))) s (\(perSecond)/s), "
            + "\(state.findings) finding\(state.findings == 1 ? "" : "s"), \(state.distinctAnswers) distinct answers"
    }

    /// The last line of a campaign against `target` (`decoder`, `server`, `client`).
    static func summary(_ state: FuzzProgress, of target: String, findings directory: String) -> String {
        let end = state.interrupted ? "; INTERRUPTED" : state.cutShort ? "; cut short after its --duration and twice --timeout, the answer awaited given up" : ""
        let saved = state.findings > 0 ? "; findings in \(directory)/" : ""
        let exits = state.testeeExits > 0 ? "; the testee exited by itself \(state.testeeExits) time\(state.testeeExits == 1 ? "" : "s")" : ""
        return "fuzz \(target): " + line(state) + exits + saved + end
    }
}
