/// Hexadecimal text for bytes and fixed-width integers, the one format every Decaf tool prints and
/// reads (vectors, dissector input, reports).
public enum Hex {
    @usableFromInline static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lower-case hex of `bytes`, two digits per byte, no separators. Inlinable, so it is
    /// specialized for the caller's collection: renderers call it for every byte they show.
    @inlinable
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes the lower-case hex of `bytes`, two digits per byte, at `out`, which has room for
    /// them: how a renderer writes every byte it shows without making a string.
    @inlinable
    public static func write(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        var cursor = UnsafeMutableRawPointer(out)
        var offset = 0
        // Four bytes at a time, their eight digits made in one word (`--json` writes every byte
        // of every frame in hex, two or three times over).
        while offset + 4 <= bytes.count {
            let word = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            cursor.storeBytes(of: digits(of: word).littleEndian, as: UInt64.self)
            cursor += 8
            offset += 4
        }
        digitPairs.withUnsafeBufferPointer { pairs in
            while offset < bytes.count {
                cursor.storeBytes(of: pairs[Int(source.load(fromByteOffset: offset, as: UInt8.self))], as: UInt16.self)
                cursor += 2
                offset += 1
            }
        }
    }

    /// The eight lower-case digits of four bytes (`word`'s bytes from least significant up), in
    /// the order they are written, from least significant up: each byte spread to 16 bits, its
    /// high nibble in the low half, then each nibble made a digit, all lanes at once.
    @inlinable @inline(__always)
    static func digits(of word: UInt32) -> UInt64 {
        var spread = UInt64(word)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        let nibbles = (spread >> 4) & 0x000F_000F_000F_000F | (spread & 0x000F_000F_000F_000F) << 8
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 39
    }

    /// The eight upper-case hex digits of `value`, as `format` shows them after its `0x`, as the
    /// bytes of a `UInt64` in memory order (the most significant digit first): made by arithmetic
    /// on the whole word at once, since a summary line shows a session id and several tags.
    @inlinable
    public static func uppercaseDigits(_ value: UInt32) -> UInt64 {
        // Nibble k of the value into byte k of the word, ...
        var nibbles = UInt64(value)
        nibbles = (nibbles | nibbles << 16) & 0x0000_FFFF_0000_FFFF
        nibbles = (nibbles | nibbles << 8) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // ... each byte made a digit (`0`-`9` from 0x30, `A`-`F` 7 further on) ...
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let digits = nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 7
        // ... and the most significant first in memory.
        return digits.bigEndian
    }

    /// The two digits of each byte value, as the bytes of a `UInt16` in memory order.
    @usableFromInline static let digitPairs: [UInt16] = (0...255).map { byte in
        UInt16(littleEndian: UInt16(digits[byte >> 4]) | UInt16(digits[byte & 0x0F]) << 8)
    }

    /// Lower-case hex of `bytes`, two digits per byte, separated by spaces, as hexdumps show them.
    @inlinable
    public static func spaced(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 3)
        for byte in bytes {
            if !out.isEmpty { out.append(UInt8(ascii: " ")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `0x` followed by `width` upper-case digits, e.g. `0xDECAFBAD`.
    public static func format(_ value: some FixedWidthInteger, width: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        let zeros = max(0, width - text.utf8.count)
        return "0x" + String(unsafeUninitializedCapacity: zeros) { $0.initialize(repeating: UInt8(ascii: "0")); return zeros } + text
    }

    /// A 32-bit value as `0xXXXXXXXX`.
    public static func word(_ value: UInt32) -> String { format(value, width: 8) }

    /// Bytes from hex text. Whitespace, `:` and `-` separate groups, a group may start with `0x`,
    /// and the digits of all groups together must form whole bytes; anything else gives nil.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        // Read as contiguous UTF-8, not through the generic protocol's iterator: the codec
        // diagnosis reads tens of thousands of answers a run.
        var text = String(text)
        return text.withUTF8(bytes(utf8:))
    }

    private static func bytes(utf8 text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        // The group's characters so far, counted up to 2, and whether it opened with a zero.
        var groupLength = 0
        var opensWithZero = false
        for char in text {
            let nibble: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = char - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ":"), UInt8(ascii: "-"):
                groupLength = 0
                continue
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                // The `0x` that opens a group: its zero was taken for a digit, so take it back.
                guard groupLength == 1, opensWithZero else { return nil }
                if high != nil { high = nil } else { high = bytes.removeLast() >> 4 }
                groupLength = 2
                continue
            default:
                return nil
            }
            if groupLength == 0 { opensWithZero = char == UInt8(ascii: "0") }
            groupLength = min(groupLength + 1, 2)
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? bytes : nil
    }
}
