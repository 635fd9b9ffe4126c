import ArgumentParser
import DecafConformance
import DecafWire

/// What the suite assumes of the target server: the brief's defaults unless given.
struct TargetProfileOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The target's own version (major.highest-minor). (default: 1.0)", valueName: "version"), transform: WireArgument.version)
    var targetVersion = ProtocolVersion.v1_0

    /// The target's limits: `--body-limit`, `--depth-limit`, `--allow-duplicate-tags`.
    @OptionGroup var limits: ReceiverLimitsArguments

    @Option(help: ArgumentHelp("The target's idle timeout; without it the idle-timeout case is unsupported.", valueName: "duration"), transform: DurationArgument.positive)
    var idleTimeout: Duration?

    @Option(help: ArgumentHelp("How soon an ACK must come for exchange.ack.prompt. (default: 500ms)", valueName: "duration"), transform: DurationArgument.positive)
    var ackDeadline = ConformanceProfile().ackDeadline

    var profile: ConformanceProfile {
        var profile = ConformanceProfile()
        profile.version = targetVersion
        profile.bodyLimit = limits.bodyLimit
        profile.depthLimit = limits.depthLimit
        profile.allowsDuplicateTags = limits.allowDuplicateTags
        profile.idleTimeout = idleTimeout
        profile.ackDeadline = ackDeadline
        return profile
    }
}
