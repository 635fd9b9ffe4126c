/// Which of the fuzzer's three oracles fired.
public enum FuzzOracle: String, Hashable, Sendable, Codable {
    /// The testee died (its process exited or was killed by a signal) on the input.
    case crash
    /// It gave no answer within the run's timeout.
    case hang
    /// Its answer breaks a MUST: it accepted what the brief refuses, refused what it accepts, or
    /// refused with another error or offset than the brief's order of checks gives; or it answered
    /// with something that is not the testee protocol.
    case disagreement
}
