import DecafWire

/// What an input's bytes show of what it is, looked at chunk by chunk as they are read, each byte
/// once: whether a byte hex text never holds has come (outside a `#` comment), which makes the
/// input binary however it goes on, and whether a whole magic has, so that it may hold frames.
public struct InputProbe {
    /// A byte that is not a hex digit or a separator came, outside a comment.
    public private(set) var isBinary = false
    /// A hex digit came before that.
    public private(set) var sawDigit = false
    /// A whole magic came, or the input starts with a near miss of one (`MagicNearMiss`): a
    /// frame a broken implementation wrote, to show with its BAD_MAGIC named.
    public private(set) var sawMagic = false
    /// Bytes looked at so far, up to the four a near miss is told by.
    private var start: [UInt8] = []
    private var inComment = false
    /// The last bytes of the chunk before, up to 3: the start of a magic the chunk ended.
    private var tail: [UInt8] = []

    public init() {}

    /// Binary, with a magic: frames to dissect as they are read.
    public var isFrames: Bool { isBinary && sawMagic }

    public mutating func look(at chunk: some Collection<UInt8>) {
        if !isBinary { scanText(chunk) }
        guard !sawMagic else { return }
        if start.count < 4 {
            start += chunk.prefix(4 - start.count)
            if MagicNearMiss(startOf: start) != nil {
                sawMagic = true
                return
            }
        }
        let bytes = tail + chunk
        // A magic the chunk cuts short is found at its end, and whole with the next chunk.
        sawMagic = FrameHeader.resynchronizationPoint(in: bytes[...]) <= bytes.count - FrameHeader.magicBytes.count
        tail = Array(bytes.suffix(FrameHeader.magicBytes.count - 1))
    }

    /// Hex text: digits with whitespace, `:` and `-` separators, `0x` prefixes and `#` comments.
    private mutating func scanText(_ chunk: some Collection<UInt8>) {
        for byte in chunk {
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
                isBinary = true
                return
            }
        }
    }
}
