/// The kinds of verdict a case can get.
public enum VerdictKind: String, CaseIterable, Sendable, Hashable, Codable {
    /// Everything the spec demands, and everything it recommends, was seen.
    case pass
    /// Everything the spec demands was seen, but a SHOULD was not followed.
    case passNonStrict = "pass-non-strict"
    /// The target broke a rule.
    case fail
    /// The case needs a feature the target did not agree to, or a setting the run was not given.
    case unsupported
    /// What the target had to do did not happen within the case's timeout.
    case timeout
    /// The suite could not run the case (no connection, a broken testee): not the target's verdict.
    case harnessError = "harness-error"

    /// Whether the verdict counts against the target.
    public var isFailure: Bool { self == .fail || self == .timeout }

    /// Whether the target did what the spec demands.
    public var isPass: Bool { self == .pass || self == .passNonStrict }

    /// How bad the verdict is, for picking the worst of repeated runs. A failure outranks
    /// `unsupported`: a run that reached the behaviour and found it wrong says more than one that
    /// could not reach it.
    var severity: Int {
        switch self {
        case .pass: 0
        case .passNonStrict: 1
        case .unsupported: 2
        case .fail: 3
        case .timeout: 4
        case .harnessError: 5
        }
    }
}
