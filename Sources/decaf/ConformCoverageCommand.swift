import ArgumentParser
import DecafConformance

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
        With --targets, the codec suite's own mutation coverage instead: each required case and the catalogued mistakes \
        (decaf testee decoder --list-mistakes) whose codec fails it, each a target that breaks what the case checks; a \
        required case no mistake fails is listed as NONE, and the exit status is 1.
        """
    )

    @Flag(help: "List each cell's cases under its row.")
    var cases = false

    @Flag(help: "List each required codec case with the mistakes whose codec fails it (its targets).")
    var targets = false

    func run() throws {
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
}
