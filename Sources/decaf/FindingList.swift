import DecafFuzz
import Synchronization

/// The findings a campaign handed on, in order, for the reports written at its end.
final class FindingList: Sendable {
    private let findings = Mutex<[FuzzFinding]>([])

    func append(_ finding: FuzzFinding) {
        findings.withLock { $0.append(finding) }
    }

    var all: [FuzzFinding] { findings.withLock { $0 } }
}
