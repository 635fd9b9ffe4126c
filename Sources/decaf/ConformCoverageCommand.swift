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
        """
    )

    @Flag(help: "List each cell's cases under its row.")
    var cases = false

    func run() throws {
        let matrix = CoverageMatrix()
        print(matrix.text(listingCases: cases), terminator: "")
        if !matrix.gaps.isEmpty || !matrix.overreaches.isEmpty { throw ExitCode(1) }
    }
}
