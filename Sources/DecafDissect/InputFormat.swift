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
        let (notText, sawDigit) = scan(input)
        return !notText && sawDigit ? .hex : .binary
    }

    /// Whether `head`, the first bytes of an input, already shows that all of it is frames to
    /// dissect as raw bytes: outside a comment it holds a byte hex text never holds, so the input
    /// is binary however it goes on, and it holds a whole magic, so it may hold frames. Such an
    /// input is dissected as it is read; any other is read whole to tell.
    public static func isFrames(_ head: [UInt8]) -> Bool {
        scan(head).notText && FrameHeader.resynchronizationPoint(in: head[...]) < head.endIndex - 3
    }

    /// Whether `input` holds, outside a comment, a byte that is not a hex digit or a separator,
    /// and whether it holds a digit before it.
    private static func scan(_ input: [UInt8]) -> (notText: Bool, sawDigit: Bool) {
        var sawDigit = false
        var inComment = false
        for byte in input {
            if inComment {
                inComment = byte != UInt8(ascii: "\n")
                continue
            }
            switch byte {
            case UInt8(ascii: "#"): inComment = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
                sawDigit = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                 UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "x"), UInt8(ascii: "X"):
                continue
            default:
                return (true, sawDigit)
            }
        }
        return (false, sawDigit)
    }

    /// What `input`, taken as raw bytes, holds instead of frames, when it cannot hold one: only
    /// whitespace, or no magic anywhere (text, such as a README, or other bytes). Nil when a
    /// frame may be in it, however damaged.
    public static func notFrames(_ input: [UInt8]) -> String? {
        if input.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return "it holds only whitespace" }
        // A magic cut off by the end of the input is still the start of a frame.
        guard FrameHeader.resynchronizationPoint(in: input[...]) == input.endIndex else { return nil }
        let what = ForeignProtocol(recognising: input).map(\.description) ?? "bytes that are not frames"
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
