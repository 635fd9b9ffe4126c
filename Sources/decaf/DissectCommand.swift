import ArgumentParser
import DecafCapture
import DecafDissect
import DecafJSON
import DecafWire
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `decaf dissect`: decode frames from captures, binary streams or hex, and show every field, or
/// what broke.
struct DissectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dissect",
        abstract: "Decode Decaf frames from a capture (pcap, pcapng), a binary stream, or hex.",
        discussion: """
            The format is detected from the content: pcap or pcapng captures (tcpdump -w, Wireshark, \
            tshark), hex text (whitespace, ':' and '-' separators, 0x prefixes and # comments allowed), \
            or raw bytes holding one or more frames. In a capture every TCP connection whose first \
            payload bytes are the magic is reassembled and decoded per direction (--port takes a port \
            instead). Exit status: 0 when every frame is valid and the capture is whole, 1 when a \
            frame is not or bytes are missing, 2 on a usage error or when the input cannot be read or \
            the output written.
            """
    )

    @Argument(help: ArgumentHelp("Captures or files of frames, one after another, or '-' for standard input (the default when --hex is not given).", valueName: "file"),
              transform: PathArgument.parse)
    var files: [String] = []

    @Option(name: .customLong("hex"), help: ArgumentHelp("Frames given as hex on the command line.", valueName: "hex"), transform: TextArgument.nonEmpty)
    var hexInput: String?

    @Flag(name: [.customShort("V"), .customShort("v"), .long], help: "Show the full tree of every frame.")
    var verbose = false

    @Flag(help: "Print one JSON object per line (schema: Specs/dissect-json.md).")
    var json = false

    @Flag(help: "Show a hexdump that names the field every byte belongs to.")
    var hexdump = false

    @Option(help: ArgumentHelp("Captures: decode TCP connections with this port at either end (default: connections whose first bytes are the magic).", valueName: "port"),
            transform: IntegerArgument.within(1...65_535))
    var port: UInt16?

    @Option(name: .customLong("type"), help: ArgumentHelp("Show only frames of this msg_type (name or number; repeatable).", valueName: "type"), transform: WireArgument.named("message type"))
    var types: [MessageType] = []

    @Option(name: .customLong("session"), help: ArgumentHelp("Show only frames of this session_id (decimal or 0x hex; repeatable).", valueName: "n"), transform: IntegerArgument.wire())
    var sessions: [UInt16] = []

    @Option(name: .customLong("seq"), help: ArgumentHelp("Show only frames with this sequence number, as frames print it (CONTROL/1) or the whole u32 (repeatable).", valueName: "seq"),
            transform: WireArgument.sequence)
    var sequences: [SequenceNumber] = []

    @Option(name: .customLong("connection"), help: ArgumentHelp("Captures: show only this connection, by the number dissect gives it (repeatable).", valueName: "n"),
            transform: IntegerArgument.within(1...Int.max))
    var connections: [Int] = []

    @Flag(help: "Captures: print statistics instead of frames: per type and connection, ACK round trips, unacknowledged frames, handshakes, errors.")
    var stats = false

    @OptionGroup var limits: DecodeOptionsArguments

    @OptionGroup var tagNames: TagOptions

    func validate() throws {
        if !files.isEmpty && hexInput != nil { throw ValidationError("give either a FILE or --hex, not both") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input ('-') can be read only once") }
        if json && (verbose || hexdump) { throw ValidationError("--json cannot be combined with --verbose or --hexdump") }
        if stats && (verbose || hexdump) { throw ValidationError("--stats cannot be combined with --verbose or --hexdump") }
    }

    private var filter: FrameFilter {
        FrameFilter(types: Set(types), sessions: Set(sessions.map(SessionID.init(rawValue:))),
                    sequences: Set(sequences.map(\.rawValue)), connections: Set(connections))
    }

    /// A listing rendered on every core into standard output, and what it came to.
    private typealias Listing = CaptureOutcome<CaptureListing<ParallelRendering<StandardOutputFile>>>

    private var style: ListingStyle { json ? .json : verbose ? .tree : .summary }

    /// Text written to a terminal fits its width, each longer line cut with "…"; JSON, and
    /// anything written to a file or a pipe, is never cut.
    private var lineWidth: Int? { json ? nil : StandardOutputFile.terminalWidth }

    func run() throws {
        if let hexInput { return try dissectStream(Array(hexInput.utf8), format: .hex) }
        guard files.count > 1 else { return try dissect(files.first) }
        // Several files one after another, as cat and head do: each under a line naming it (a
        // `file` record with --json); a file that cannot be read is said and the others go on.
        var worst: Int32 = 0
        for (index, path) in files.enumerated() {
            let header = json ? JSONLine.encode(FileRecordJSON(path: path)) : (index == 0 ? "" : "\n") + "==> \(path) <=="
            if let code = FileHandleOutput.standardOutput.write(header + "\n") { throw InputError.cannotWrite(code) }
            do {
                try dissect(path)
            } catch let error as InputError {
                FileHandleOutput.standardError.write("Error: \(path): \(error.message)\n")
                worst = 2
            } catch let code as ExitCode {
                worst = max(worst, code.rawValue)
            }
        }
        if worst != 0 { throw ExitCode(worst) }
    }

    /// Dissects one file, or standard input when `file` is nil or "-".
    private func dissect(_ file: String?) throws {
        if file == nil || file == "-", isatty(0) == 1 {
            throw InputError("no input: give a FILE, --hex, or pipe frames into standard input")
        }
        var input = try ChunkedInput(path: file)
        var head = try input.head()
        guard !head.isEmpty else { throw InputError("the input is empty") }
        if CaptureFormat.detect(head) != nil { return try dissectCapture(first: head, rest: &input) }
        // Frames are dissected as they are read once the input shows it holds them; hex is read
        // whole, and so is anything else until it shows what it is: binary bytes without a magic
        // only up to a limit, so an endless input (/dev/zero) is refused, not read forever.
        var probe = InputProbe()
        probe.look(at: head)
        while !probe.isFrames {
            if probe.isBinary && head.count >= Self.magicSearchLimit {
                throw notFrames(file, InputFormat.notFrames(head, whole: false))
            }
            let more = try input.next()
            if more.isEmpty { break }
            head += more
            probe.look(at: more)
        }
        if probe.isFrames { return try dissectStream(first: head, rest: &input) }
        let format = InputFormat.detect(head)
        if format == .binary, let what = InputFormat.notFrames(head) { throw notFrames(file, what) }
        try dissectStream(head, format: format)
    }

    /// How far binary input without a magic is read before it is refused as not frames.
    static let magicSearchLimit = 64 << 20

    /// The error for an input that is not a capture, hex or frames, and holds `what` instead.
    private func notFrames(_ file: String?, _ what: String?) -> InputError {
        InputError("\(file.map { $0 == "-" ? "standard input" : $0 } ?? "standard input") is not a capture, hex or frames: \(what ?? "it holds no frame"); "
            + "give a pcap or pcapng capture, a file of frames, or hex")
    }

    /// Frames given whole (hex, or an input that had to be read whole to tell what it is), listed as
    /// a capture of one connection.
    private func dissectStream(_ input: [UInt8], format: InputFormat) throws {
        guard !input.isEmpty else { throw InputError("the input is empty") }
        try refuseCaptureOptions(format)
        guard let bytes = format.bytes(of: input) else {
            throw InputError("the input looks like hex text but is not whole bytes of hex digits")
        }
        let options = limits.decodeOptions
        try listStream { [json] in StreamCapture.dissect(bytes, options: options, keepsSkippedBytes: json, into: &$0) }
    }

    /// A file of frames, streamed as it is read, listed as a capture of one connection.
    private func dissectStream(first: [UInt8], rest input: inout ChunkedInput) throws {
        try refuseCaptureOptions(.binary)
        var stream = StreamCapture(options: limits.decodeOptions, keepsSkippedBytes: json)
        try listStream { try input.feed(first, to: &stream, into: &$0) }
    }

    private func refuseCaptureOptions(_ format: InputFormat) throws {
        guard !stats, port == nil, connections.isEmpty else {
            throw InputError("--stats, --port and --connection need a capture (pcap or pcapng); this input is \(format.rawValue)")
        }
    }

    /// Lists a stream of frames that `dissect` feeds, and says what it came to.
    private func listStream(_ dissect: (inout Listing) throws -> Void) throws {
        let outcome = try list(layout: .stream, dissect)
        if outcome.frames > 0 && outcome.inner.shown == 0 {
            FileHandleOutput.standardError.write("No frame matches the filter; the input holds \(outcome.frames) frame(s)\n")
        }
        if outcome.failed { throw ExitCode.failure }
    }

    /// A pcap or pcapng capture, streamed: read in large chunks into one buffer, each chunk's
    /// packets dissected where they lie.
    private func dissectCapture(first: [UInt8], rest input: inout ChunkedInput) throws {
        var dissector = CaptureDissector(options: limits.decodeOptions, port: port)
        let failed: Bool
        let frames: Int
        if stats {
            var statistics = CaptureOutcome(CaptureStatistics(keepsEachRoundTrip: json, filter: filter))
            try input.feed(first, to: &dissector, into: &statistics)
            let lines = json ? [CaptureStatisticsRenderer.json(for: statistics.inner, of: dissector)]
                : CaptureStatisticsRenderer.lines(for: statistics.inner, of: dissector)
            var output = StandardOutputFile(width: lineWidth)
            Array((lines.joined(separator: "\n") + "\n").utf8).withUnsafeBytes { output.write($0) }
            if let code = output.failure { throw InputError.cannotWrite(code) }
            report(statistics.captureError)
            (failed, frames) = (statistics.failed, statistics.frames)
        } else {
            let outcome = try list(layout: .capture) { try input.feed(first, to: &dissector, into: &$0) }
            report(outcome.captureError)
            (failed, frames) = (outcome.failed, outcome.frames)
            if frames > 0 && outcome.inner.shown == 0 {
                FileHandleOutput.standardError.write("No frame matches the filter; the capture holds \(frames) frame(s)\n")
            }
        }
        if frames == 0 && !stats {
            let ignored = dissector.ignoredConnections
            FileHandleOutput.standardError.write("No Decaf frames found in \(dissector.reader.packetCount) packet(s)"
                + (ignored == 0 ? "" : port.map { "; \(ignored) TCP connection(s) were not on port \($0)" }
                    ?? "; \(ignored) TCP connection(s) did not start with the magic (try --port)") + "\n")
        }
        if failed { throw ExitCode.failure }
    }

    /// Lists the frames and notes `dissect` hands on, as the filter lets them through, each frame
    /// placed as `layout` says, rendered on every core into standard output: what they came to.
    private func list(layout: ListingLayout, _ dissect: (inout Listing) throws -> Void) throws -> Listing {
        let rendering = ParallelRendering(style: style, hexdump: hexdump, registry: try tagNames.registry, layout: layout,
                                          workers: ProcessInfo.processInfo.activeProcessorCount, into: StandardOutputFile(width: lineWidth))
        var outcome = CaptureOutcome(CaptureListing(output: rendering, filter: filter))
        do {
            try dissect(&outcome)
        } catch {
            _ = rendering.finish()
            throw error
        }
        if let code = rendering.finish().failure { throw InputError.cannotWrite(code) }
        return outcome
    }

    /// Feeds the input, `first` bytes then the rest of `input`, through `dissector` into `sink`.
    private func report(_ captureError: CaptureError?) {
        if let captureError { FileHandleOutput.standardError.write("Error: \(captureError)\n") }
    }
}
