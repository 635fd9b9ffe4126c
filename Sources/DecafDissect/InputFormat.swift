import DecafWire

/// What kind of bytes a dissector was given, told apart by content.
public enum InputFormat: String, Sendable, Hashable {
    /// Hex text: digits with optional whitespace, `:` or `-` separators, `0x` prefixes and `#`
    /// comments to the end of a line.
    case hex
    /// Raw bytes of one or more frames.
    case binary

    /// The format of `input`: hex if, comments aside, it is only hex digits and separators (and
    /// holds at least one digit), binary otherwise. Frames start with 0xDE, which is not text.
    public static func detect(_ input: [UInt8]) -> InputFormat {
        var probe = InputProbe()
        probe.look(at: input)
        return !probe.isBinary && probe.sawDigit ? .hex : .binary
    }

    /// What `input`, taken as raw bytes, holds instead of frames, when it cannot hold one: only
    /// whitespace, or no magic anywhere (text, such as a README, or other bytes). Nil when a
    /// frame may be in it, however damaged. `whole` false: `input` is only the first bytes of a
    /// longer input, which was not read further.
    public static func notFrames(_ input: [UInt8], whole: Bool = true) -> String? {
        if input.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return "it holds only whitespace" }
        // A frame whose magic is a near miss is a frame a broken implementation wrote.
        if MagicNearMiss(startOf: input) != nil { return nil }
        // A magic cut off by the end of the input is still the start of a frame.
        guard FrameHeader.resynchronizationPoint(in: input[...]) == input.endIndex else { return nil }
        let what = ForeignProtocol(recognising: input).map(\.description) ?? "bytes that are not frames"
        guard whole else { return "it holds \(what), and no 0xDECAFBAD in its first \(input.count) bytes (it was not read further)" }
        return "it holds \(what), and no 0xDECAFBAD anywhere in its \(input.count) bytes"
    }

    /// The frame bytes that `input` in this format stands for, or nil for malformed hex.
    public func bytes(of input: [UInt8]) -> [UInt8]? {
        switch self {
        case .binary:
            return input
        case .hex:
            let text = String(decoding: input, as: UTF8.self)
            let withoutComments = text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
                .joined(separator: "\n")
            return Hex.bytes(withoutComments)
        }
    }
}
