import ArgumentParser
import DecafWire

/// The receiver settings every decoding command accepts; defaults are the brief's.
struct DecodeOptionsArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Largest body accepted, before and after inflating, in bytes. (default: 10485760)", valueName: "bytes"), transform: IntegerArgument.within(0...Int(UInt32.max)))
    var bodyLimit = DecodeOptions.defaultBodyLimit

    @Option(help: ArgumentHelp("Deepest nesting level of TLV containers accepted. (default: 4)", valueName: "n"), transform: IntegerArgument.within(0...TLVOptions.maximumDepthLimit))
    var depthLimit = TLVOptions().depthLimit

    @Flag(help: "Accept a TLV tag repeated within one sequence.")
    var allowDuplicateTags = false

    @Option(help: ArgumentHelp("Highest version_minor accepted (the receiver's own minor). (default: 0)", valueName: "n"), transform: IntegerArgument.within(UInt8.min...UInt8.max))
    var highestMinor: UInt8 = 0

    var decodeOptions: DecodeOptions {
        DecodeOptions(
            bodyLimit: bodyLimit,
            version: ProtocolVersion(major: 1, minor: highestMinor),
            tlv: TLVOptions(depthLimit: depthLimit, allowsDuplicateTags: allowDuplicateTags)
        )
    }
}
