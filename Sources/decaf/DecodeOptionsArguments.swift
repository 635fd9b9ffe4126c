import ArgumentParser
import DecafWire

/// The receiver settings every decoding command accepts; defaults are the brief's.
struct DecodeOptionsArguments: ParsableArguments {
    @Option(help: "Largest body accepted, before and after inflating, in bytes.")
    var bodyLimit = DecodeOptions.defaultBodyLimit

    @Option(help: "Deepest nesting level of TLV containers accepted.")
    var depthLimit = 4

    @Flag(help: "Accept a TLV tag repeated within one sequence.")
    var allowDuplicateTags = false

    @Option(help: "Highest version_minor accepted (the receiver's own minor).")
    var highestMinor: UInt8 = 0

    func validate() throws {
        guard bodyLimit >= 0, bodyLimit <= Int(UInt32.max) else { throw ValidationError("--body-limit must be 0...4294967295") }
        guard depthLimit >= 0 else { throw ValidationError("--depth-limit must not be negative") }
    }

    var decodeOptions: DecodeOptions {
        DecodeOptions(
            bodyLimit: bodyLimit,
            version: ProtocolVersion(major: 1, minor: highestMinor),
            tlv: TLVOptions(depthLimit: depthLimit, allowsDuplicateTags: allowDuplicateTags)
        )
    }
}
