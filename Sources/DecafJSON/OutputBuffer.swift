import DecafWire

/// Text being written for output: one growing block written through a pointer, so a renderer that
/// writes a frame as dozens of small pieces pays one capacity check per piece, not an array's
/// bookkeeping per append. A renderer owns its buffer; what it wrote is taken as `bytes`. Only its
/// owner writes to it, so its fields skip the runtime's check for overlapping accesses, which would
/// cost more than the writes. The appends are inlinable: the renderers and the JSON writer in other
/// modules make dozens per frame, and a call for each would cost more than the byte it writes.
public final class OutputBuffer {
    /// Bytes written so far.
    public var count: Int { written }
    /// Grown by each append without an overflow check (`&+=`): the append asked `room` for at
    /// least as many bytes first, so the sum is at most `capacity`.
    @exclusivity(unchecked) @usableFromInline var written = 0
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var capacity: Int

    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far, valid until the next write.
    @inlinable
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: written) }

    /// Forgets what was written, keeping the room. A debug build overwrites it first, so a view of
    /// `bytes` kept past the next write (which it must not be) shows garbage to the tests that
    /// compare output, instead of bytes that look right.
    public func removeAll() {
        #if DEBUG
        base.update(repeating: 0xDB, count: written)
        #endif
        written = 0
    }

    /// Room for `extra` more bytes, at the end of what was written; valid until the next write.
    @inlinable @inline(__always)
    func room(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        assert(extra >= 0 && written <= capacity, "an output buffer asked for \(extra) bytes with \(written) of \(capacity) used")
        // Compared with the room left rather than added to what was written: neither can
        // overflow, and an append pays no check for an overflow that cannot happen.
        if extra > capacity &- written { grow(to: written + extra) }
        return base + written
    }

    @usableFromInline
    func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: written)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    public func append(_ byte: UInt8) {
        room(1).pointee = byte
        written &+= 1
    }

    @inlinable @inline(__always)
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let count = bytes.count
        let target = UnsafeMutableRawPointer(room(count))
        // Most pieces are a few bytes: copied in place, without a call, as two words that overlap
        // in the middle (the first and the last 8 or 4 bytes), never reading past the piece.
        if count >= 8 && count <= 16 {
            let head = source.loadUnaligned(as: UInt64.self), tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 && count < 8 {
            let head = source.loadUnaligned(as: UInt32.self), tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count < 4 {
            for index in 0..<count { target.storeBytes(of: source.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self) }
        } else {
            target.copyMemory(from: source, byteCount: count)
        }
        written &+= count
    }

    @inlinable @inline(__always)
    public func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A JSON member's start, `"name":`, after a comma when `separated`: written at once, since a
    /// JSON line has dozens.
    @inlinable @inline(__always)
    public func appendKey(_ name: StaticString, separated: Bool) {
        let length = name.utf8CodeUnitCount
        var cursor = room(length + 4)
        if separated {
            cursor.pointee = UInt8(ascii: ",")
            cursor += 1
        }
        cursor.pointee = UInt8(ascii: "\"")
        for index in 0..<length { cursor[1 + index] = name.utf8Start[index] }
        cursor[length + 1] = UInt8(ascii: "\"")
        cursor[length + 2] = UInt8(ascii: ":")
        written &+= length + (separated ? 4 : 3)
    }

    /// Text known only when it is written. Disfavoured, so that a literal is written as the
    /// `StaticString` it can be, without a copy of a `String` first.
    @inlinable @_disfavoredOverload
    public func append(_ text: String) {
        let utf8 = text.utf8
        if utf8.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) != nil { return }
        // A small string (a name, a label) lives inside the value: its bytes are read in place.
        let target = room(utf8.count)
        var index = 0
        for byte in utf8 {
            target[index] = byte
            index += 1
        }
        written &+= index
    }

    @inlinable
    public func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// `count` copies of `byte`: a column's padding, a few bytes each time.
    @inlinable @inline(__always)
    public func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        // A word at a time, past the end if need be (the room is there): a call to fill a few
        // bytes would cost more than the bytes.
        let words = (count + 7) / 8
        let target = UnsafeMutableRawPointer(room(words * 8))
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        for word in 0..<words { target.storeBytes(of: pattern, toByteOffset: 8 * word, as: UInt64.self) }
        written &+= count
    }

    /// `count` copies of `byte` at `position`, moving what follows.
    public func insert(repeating byte: UInt8, count: Int, at position: Int) {
        guard count > 0 else { return }
        assert(position >= 0 && position <= written, "an insertion at \(position) of an output buffer holding \(written) bytes")
        _ = room(count)
        (base + position + count).update(from: base + position, count: written - position)
        (base + position).update(repeating: byte, count: count)
        written &+= count
    }

    /// Characters from `start` to the end: UTF-8 bytes that do not continue another (what is
    /// written here holds no combining characters).
    public func scalarCount(from start: Int) -> Int {
        // Byte by byte: what is counted was just written, piece by piece, and reading it back a
        // word at a time would wait for those small writes to land.
        let end = written
        var scalars = end - start
        for index in start..<end where base[index] & 0xC0 == 0x80 { scalars -= 1 }
        return scalars
    }

    /// Has `write` fill the next `count` bytes in place.
    @inlinable @inline(__always)
    public func append(count: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        write(UnsafeMutableBufferPointer(start: room(count), count: count))
        written &+= count
    }

    /// `value` in decimal. A listing writes several numbers per line, so the digits are counted
    /// by comparison and written two at a time, not one division per digit twice over.
    @inlinable @inline(__always)
    public func appendDecimal(_ value: some BinaryInteger) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20 && magnitude >= limit {
            digits += 1
            limit &*= 10
        }
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let digit = pairs.utf8Start
        let start = room(digits)
        var cursor = start + digits
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) * 2
            magnitude /= 100
            cursor -= 2
            cursor[0] = digit[pair]
            cursor[1] = digit[pair + 1]
        }
        if magnitude >= 10 {
            cursor -= 2
            cursor[0] = digit[Int(magnitude) * 2]
            cursor[1] = digit[Int(magnitude) * 2 + 1]
        } else {
            cursor -= 1
            cursor.pointee = UInt8(ascii: "0") + UInt8(magnitude)
        }
        assert(cursor == start, "the digits of \(value) did not fill the \(digits) counted for them")
        written &+= digits
    }

    /// The lower-case hex of `bytes`, two digits per byte.
    public func appendHex(_ bytes: UnsafeRawBufferPointer) {
        Hex.write(bytes, to: room(bytes.count * 2))
        written &+= bytes.count * 2
    }

    /// What `value.description` says (the brief's name, or `UNKNOWN(n)`), written without building
    /// it: a summary line shows a message type and a sequence category.
    @inlinable
    public func appendDescription<Value: BriefNamedWireValue>(of value: Value) {
        if let name = value.briefName {
            append(name)
        } else {
            append(value.description)
        }
    }

    /// The four upper-case hex digits of `value`.
    @inlinable
    public func appendUppercaseHex(_ value: UInt16) {
        let digits = Hex.uppercaseDigits(UInt32(value))
        withUnsafeBytes(of: digits) { append(UnsafeRawBufferPointer(rebasing: $0[4..<8])) }
    }
}
