/// The rules of a TLV body (TLV-1, TLV-2, TLV-3), checked in the order the fields occur, with
/// errors at the offending field's tag offset within the body.
///
/// Within one field the checks run: fewer than 6 bytes left (TLV_TRUNCATED), value longer than
/// what remains of the enclosing sequence (TLV_LENGTH_OVERFLOW), tag already seen in this sequence
/// (TLV_DUPLICATE_TAG), a container whose value would be parsed deeper than the limit
/// (TLV_TOO_DEEP), then the container's own fields.
///
/// It allocates nothing for sequences of up to 8 fields; longer ones use an 8 KiB tag set, one per
/// nesting level, so duplicate detection stays linear on hostile input. When repeats are rejected a
/// sequence holds at most one container, so each level's set serves exactly one sequence.
public enum TLVValidator {
    /// Throws the first rule `body` breaks. Most bodies (ACKs, short texts) are a few fields and no
    /// container: they are passed in one inlined loop, and everything else, errors included, is
    /// judged by the full walk, which says what is wrong.
    @inline(__always)
    public static func validate(_ body: UnsafeRawBufferPointer, options: TLVOptions) throws(WireError) {
        guard !isSmallFlatSequence(body, allowsDuplicateTags: options.allowsDuplicateTags) else { return }
        try validateFully(body, options: options)
    }

    /// Whether `body` is a sequence of up to eight whole fields, none a container, with no tag
    /// repeated unless repeats are allowed: a body every rule accepts. False says nothing.
    @inline(__always)
    static func isSmallFlatSequence(_ body: UnsafeRawBufferPointer, allowsDuplicateTags: Bool) -> Bool {
        var tags = InlineArray<8, UInt16>(repeating: 0)
        var count = 0
        var position = 0
        while position < body.count {
            guard count < 8, body.count - position >= TLVEncoder.fieldHeaderSize else { return false }
            let tag = body.bigEndianUInt16(at: position)
            let length = Int(body.bigEndianUInt32(at: position + 2))
            guard tag != TLVTag.container.rawValue, length <= body.count - position - TLVEncoder.fieldHeaderSize else { return false }
            if !allowsDuplicateTags {
                for index in 0..<count where tags[index] == tag { return false }
                tags[count] = tag
            }
            count += 1
            position += TLVEncoder.fieldHeaderSize + length
        }
        return true
    }

    /// The full walk of `validate`.
    @inline(never)
    private static func validateFully(_ body: UnsafeRawBufferPointer, options: TLVOptions) throws(WireError) {
        var validation = Validation(
            body: body,
            depthLimit: options.effectiveDepthLimit,
            allowsDuplicateTags: options.allowsDuplicateTags,
            acceptsEmptyContainerPastLimit: options.acceptsEmptyContainerPastLimit
        )
        defer { validation.tagSets?.deallocate() }
        try validation.sequence(from: 0, to: body.count, depth: 0)
    }

    /// Throws the first rule `body` breaks.
    public static func validate(_ body: some Collection<UInt8>, options: TLVOptions) throws(WireError) {
        try body.withContiguousRawBytes { bytes throws(WireError) in try validate(bytes, options: options) }
    }
}

private struct Validation {
    static let inlineTags = 8
    static let header = TLVEncoder.fieldHeaderSize

    let body: UnsafeRawBufferPointer
    let depthLimit: Int
    let allowsDuplicateTags: Bool
    let acceptsEmptyContainerPastLimit: Bool
    /// Per nesting level, a 65,536-bit set of the tags seen in that level's sequence: grown,
    /// zeroed, to cover a level when a sequence there first passes the inline table, and freed by
    /// `TLVValidator.validate`. Plain memory keeps the common path free of reference counting.
    var tagSets: UnsafeMutableBufferPointer<UInt64>?
    static let wordsPerSet = 1024

    /// Checks the fields of one sequence. Inlined where it is called, so a body without containers
    /// is checked without a call; containers go through `container`.
    @inline(__always)
    mutating func sequence(from start: Int, to end: Int, depth: Int) throws(WireError) {
        var recent = InlineArray<8, UInt16>(repeating: 0)
        var count = 0
        var position = start
        while position < end {
            let remaining = end - position
            guard remaining >= Self.header else {
                throw WireError(.tlvTruncated(remaining: remaining), offset: position)
            }
            let tag = body.bigEndianUInt16(at: position)
            let length = body.bigEndianUInt32(at: position + 2)
            let available = remaining - Self.header
            guard UInt64(length) <= UInt64(available) else {
                throw WireError(.tlvLengthOverflow(tag: TLVTag(tag), length: length, available: available), offset: position)
            }
            if !allowsDuplicateTags {
                if count < Self.inlineTags {
                    for i in 0..<count where recent[i] == tag {
                        throw duplicate(tag, at: position, sequenceStart: start)
                    }
                    recent[count] = tag
                } else {
                    if count == Self.inlineTags {
                        for i in 0..<Self.inlineTags { _ = insert(recent[i], depth: depth) }
                    }
                    if !insert(tag, depth: depth) { throw duplicate(tag, at: position, sequenceStart: start) }
                }
            }
            count += 1
            let valueEnd = position + Self.header + Int(length)
            if tag == TLVTag.container.rawValue {
                guard depth < depthLimit else {
                    guard acceptsEmptyContainerPastLimit, length == 0 else {
                        throw WireError(.tlvTooDeep(depth: depth + 1, limit: depthLimit), offset: position)
                    }
                    position = valueEnd
                    continue
                }
                try container(from: position + Self.header, to: valueEnd, depth: depth + 1)
            }
            position = valueEnd
        }
    }

    /// Checks a container's value, a sequence one level deeper.
    @inline(never)
    private mutating func container(from start: Int, to end: Int, depth: Int) throws(WireError) {
        try sequence(from: start, to: end, depth: depth)
    }

    /// Adds `tag` to the level's set; false if it was already there.
    private mutating func insert(_ tag: UInt16, depth: Int) -> Bool {
        let needed = (depth + 1) * Self.wordsPerSet
        if (tagSets?.count ?? 0) < needed {
            let grown = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: needed)
            grown.initialize(repeating: 0)
            if let old = tagSets {
                _ = grown.update(fromContentsOf: old)
                old.deallocate()
            }
            tagSets = grown
        }
        let word = depth * Self.wordsPerSet + Int(tag >> 6)
        let bit = UInt64(1) << UInt64(tag & 63)
        if tagSets![word] & bit != 0 { return false }
        tagSets![word] |= bit
        return true
    }

    private func duplicate(_ tag: UInt16, at position: Int, sequenceStart: Int) -> WireError {
        var first = sequenceStart
        while body.bigEndianUInt16(at: first) != tag {
            first += Self.header + Int(body.bigEndianUInt32(at: first + 2))
        }
        return WireError(.tlvDuplicateTag(tag: TLVTag(tag), firstOffset: first), offset: position)
    }
}
