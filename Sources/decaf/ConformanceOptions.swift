import ArgumentParser
import DecafConformance
import DecafWire

/// What the suite assumes of the target, and which cases it runs.
struct ConformanceOptions: ParsableArguments {
    @Option(name: .customLong("case"), help: "Run the cases whose ID matches (* for any characters); repeatable. A pattern that matches nothing is an error.")
    var patterns: [String] = []

    @Option(help: "Run only cases of this level (required, recommended, optional); repeatable.")
    var level: [ConformanceLevel] = []

    @Option(help: "The target's own version (major.highest-minor).")
    var targetVersion = ProtocolVersion.v1_0

    @Option(help: "The target's body limit in bytes.")
    var bodyLimit = DecodeOptions.defaultBodyLimit

    @Option(help: "The target's idle timeout in seconds; without it the idle-timeout case is unsupported.")
    var idleTimeout: Double?

    @Option(help: "Milliseconds within which an ACK must come for exchange.ack.prompt.")
    var ackDeadline = 500

    var profile: ConformanceProfile {
        var profile = ConformanceProfile()
        profile.version = targetVersion
        profile.bodyLimit = bodyLimit
        profile.idleTimeout = idleTimeout.map { .milliseconds(Int64($0 * 1000)) }
        profile.ackDeadline = .milliseconds(ackDeadline)
        return profile
    }

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
