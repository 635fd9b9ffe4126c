import ArgumentParser
import DecafWire

/// The receiver settings every decoding command accepts: its limits and its version; defaults are
/// the brief's.
struct DecodeOptionsArguments: ParsableArguments {
    @OptionGroup var limits: ReceiverLimitsArguments

    @Option(help: ArgumentHelp("Highest version_minor accepted (the receiver's own minor). (default: 0)", valueName: "n"), transform: IntegerArgument.within(UInt8.min...UInt8.max))
    var highestMinor: UInt8 = 0

    var decodeOptions: DecodeOptions {
        DecodeOptions(bodyLimit: limits.bodyLimit, version: ProtocolVersion(major: 1, minor: highestMinor), tlv: limits.tlv)
    }
}
