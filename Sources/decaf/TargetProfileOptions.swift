import ArgumentParser
import DecafConformance
import DecafWire

/// What the suite assumes of the target server: the brief's defaults unless given.
struct TargetProfileOptions: ParsableArguments {
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
}
