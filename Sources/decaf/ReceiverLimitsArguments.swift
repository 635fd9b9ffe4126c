import ArgumentParser
import DecafWire

/// A receiver's limits, as every command that decodes, serves or assumes a receiver takes them:
/// the body limit, the depth limit and whether a tag may repeat. Defaults are the brief's.
struct ReceiverLimitsArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Largest body accepted, before and after inflating, in bytes. (default: 10485760)", valueName: "bytes"), transform: IntegerArgument.within(0...Int(UInt32.max)))
    var bodyLimit = DecodeOptions.defaultBodyLimit

    @Option(help: ArgumentHelp("Deepest nesting level of TLV containers accepted. (default: 4)", valueName: "n"), transform: IntegerArgument.within(0...TLVOptions.maximumDepthLimit))
    var depthLimit = TLVOptions().depthLimit

    @Flag(help: "Accept a TLV tag repeated within one sequence.")
    var allowDuplicateTags = false

    /// The TLV rules these limits set.
    var tlv: TLVOptions { TLVOptions(depthLimit: depthLimit, allowsDuplicateTags: allowDuplicateTags) }
}
