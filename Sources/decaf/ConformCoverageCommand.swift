import ArgumentParser
import DecafConformance
import DecafPeer

/// `decaf conform coverage`: which cases check each requirement in each role, at which level,
/// and where a MUST goes unchecked or a required case checks no MUST.
struct ConformCoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Show, for each requirement and role (server, client, codec), its level and the cases that check it.",
        discussion: """
        A cell reads "MUST  3 required": how strongly the requirement binds the role (MUST, SHOULD, MAY, or - where it \
        does not), then how many cases of that role's suite check it, at each level. A cell marked ! is a MUST that no \
        required case checks. Exit status: 0 when every MUST has a required case in each role it binds and every \
        required case checks a MUST; 1 otherwise.
        With --targets, a suite's own mutation coverage instead: each required case and the targets that break what it \
        checks. For the codec suite (--role codec, the default) the catalogued mistakes (decaf testee decoder \
        --list-mistakes) whose codec fails it; for the server suite (--role server) the faults of the reference peer \
        (decaf peer --list-faults) or the codec mistakes of its decoder (decaf peer --mistake) under which it fails, \
        among those that break a requirement the case checks; each case is judged against the peer in memory, on a \
        virtual clock (seconds, not a run). A required case no target fails is listed as NONE (or as failing the faultless peer), and \
        the exit status is 1.
        """
    )

    @Flag(help: "List each cell's cases under its row.")
    var cases = false

    @Flag(help: "List each required case of a suite (--role) with the targets that fail it.")
    var targets = false

    @Option(help: "With --targets, the suite: codec (catalogued mistakes) or server (the reference peer's faults).")
    var role: TargetRole = .codec

    /// The suites whose targets `--targets` lists.
    enum TargetRole: String, ExpressibleByArgument, CaseIterable {
        case codec, server
    }

    func validate() throws {
        if role != .codec && !targets { throw ValidationError("--role goes with --targets") }
    }

    func run() throws {
        if targets && role == .server {
            try listServerTargets()
            return
        }
        if targets {
            let coverage = CodecTargets()
            let required = coverage.targets.filter { $0.level == .required }
            let width = required.map(\.id.count).max() ?? 0
            for target in required {
                let names = target.mistakes.isEmpty ? "NONE" : target.mistakes.map(\.name).joined(separator: ", ")
                print("\(target.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(names)")
            }
            let missing = coverage.missing
            print("\(required.count - missing.count) of \(required.count) required codec cases fail against a catalogued mistake"
                  + (missing.isEmpty ? "" : "; \(missing.count) against none (NONE above)"))
            if !missing.isEmpty { throw ExitCode(1) }
            return
        }
        let matrix = CoverageMatrix()
        print(matrix.text(listingCases: cases), terminator: "")
        if !matrix.gaps.isEmpty || !matrix.overreaches.isEmpty { throw ExitCode(1) }
    }

    private func listServerTargets() throws {
        let coverage = try ServerTargets()
        let required = coverage.targets.filter { $0.level == .required }
        let width = required.map(\.id.count).max() ?? 0
        for target in required {
            let names = if let reference = target.reference {
                "the faultless peer does not pass it (\(reference.kind.rawValue): \(reference.reason))"
            } else {
                target.breakages.isEmpty ? "NONE" : target.breakages.map(\.option).joined(separator: ", ")
            }
            print("\(target.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(names)")
        }
        let missing = coverage.missing
        print("\(required.count - missing.count) of \(required.count) required server cases fail against the reference peer with a fault or a codec mistake"
              + (missing.isEmpty ? "" : "; \(missing.count) against none (NONE above)"))
        if !missing.isEmpty { throw ExitCode(1) }
    }
}
