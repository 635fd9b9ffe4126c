import ArgumentParser
import DecafDissect
import DecafWire
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `decaf dissect`: decode frames from hex or binary input and show every field, or what broke.
struct DissectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dissect",
        abstract: "Decode Decaf frames from a file, standard input or a hex string.",
        discussion: """
            The input is hex text (whitespace, ':' and '-' separators, 0x prefixes and # comments \
            allowed) or raw bytes holding one or more frames; the format is detected from the content. \
            Exit status: 0 when every frame is valid, 1 when any frame is not, 2 on a usage error.
            """
    )

    @Argument(help: "A file of frames, or '-' for standard input (the default when --hex is not given).")
    var file: String?

    @Option(name: .customLong("hex"), help: "Frames given as hex on the command line.")
    var hexInput: String?

    @Flag(name: [.customShort("V"), .long], help: "Show the full tree of every frame.")
    var verbose = false

    @Flag(help: "Print one JSON object per line (schema: Specs/dissect-json.md).")
    var json = false

    @Flag(help: "Show a hexdump that names the field every byte belongs to.")
    var hexdump = false

    @OptionGroup var limits: DecodeOptionsArguments

    func validate() throws {
        if file != nil && hexInput != nil { throw ValidationError("give either a FILE or --hex, not both") }
        if json && (verbose || hexdump) { throw ValidationError("--json cannot be combined with -V or --hexdump") }
    }

    func run() throws {
        let input = try readInput()
        guard !input.isEmpty else { throw InputError("the input is empty") }
        let format = hexInput != nil ? InputFormat.hex : InputFormat.detect(input)
        guard let bytes = format.bytes(of: input) else {
            throw InputError("the input looks like hex text but is not whole bytes of hex digits")
        }
        let report = DissectionReport(style: json ? .json : verbose ? .tree : .summary, hexdump: hexdump)
        var failed = false
        for event in StreamDissector.dissect(bytes, options: limits.decodeOptions) {
            if case let .frame(record) = event, !record.isValid { failed = true }
            report.lines(for: event).forEach { print($0) }
        }
        if failed { throw ExitCode.failure }
    }

    private func readInput() throws -> [UInt8] {
        if let hexInput { return Array(hexInput.utf8) }
        if let file, file != "-" {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw InputError("cannot read \(file)")
            }
            return Array(data)
        }
        if isatty(0) == 1 { throw InputError("no input: give a FILE, --hex, or pipe frames into standard input") }
        return Array(FileHandle.standardInput.readDataToEndOfFile())
    }
}
