/// The ones'-complement sum of RFC 1071 that IPv4 and TCP headers carry.
enum InternetChecksum {
    static func sum(_ bytes: some Sequence<UInt8>, initial: UInt32 = 0) -> UInt32 {
        var sum = initial
        var high: UInt8?
        for byte in bytes {
            if let first = high {
                sum += UInt32(first) << 8 | UInt32(byte)
                high = nil
            } else {
                high = byte
            }
        }
        if let first = high { sum += UInt32(first) << 8 }
        return sum
    }

    static func finish(_ sum: UInt32) -> UInt16 {
        var sum = sum
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }
}
