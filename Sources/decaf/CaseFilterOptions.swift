import ArgumentParser
import DecafConformance
import DecafDissect

/// Which conformance cases a run takes.
struct CaseFilterOptions: ParsableArguments {
    @Option(name: .customLong("case"), help: ArgumentHelp("Run the cases whose ID matches (* for any characters); repeatable. A pattern that matches nothing is an error.", valueName: "pattern"),
            transform: TextArgument.nonEmpty)
    var patterns: [String] = []

    @Option(help: "Run only cases of this level (required, recommended, optional); repeatable.")
    var level: [ConformanceLevel] = []

    /// The selected cases of `cases`; a filter that selects nothing ends the run with status 3.
    func select(_ cases: [ConformanceCase]) throws -> [ConformanceCase] {
        do {
            return try CaseSelection(patterns: patterns, levels: Set(level)).apply(to: cases)
        } catch {
            FileHandleOutput.standardError.write("decaf conform: \(error); nothing ran\n")
            throw ExitCode(3)
        }
    }
}

extension ConformanceLevel: ExpressibleByArgument {}
