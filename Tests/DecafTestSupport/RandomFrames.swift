import DecafWire

/// Random but well-formed protocol values, for property tests.
extension SeededGenerator {
    /// A random header that a default receiver accepts apart from its body fields.
    public mutating func header(compress: CompressType = .none) -> FrameHeader {
        FrameHeader(
            messageType: MessageType(rawValue: UInt16.random(in: 0...6, using: &self)),
            sequence: SequenceNumber(rawValue: UInt32.random(in: 0...UInt32.max, using: &self)),
            timestamp: UInt32.random(in: 0...UInt32.max, using: &self),
            sessionID: SessionID(rawValue: UInt16.random(in: 0...UInt16.max, using: &self)),
            encryptType: Bool.random(using: &self) ? .none : .crc32,
            compressType: compress
        )
    }

    /// A random TLV tree with distinct tags per sequence and nesting up to `depth` containers.
    public mutating func fields(depth: Int = 4, maxCount: Int = 6) -> [TLVField] {
        let count = Int.random(in: 0...maxCount, using: &self)
        var tags = Set<UInt16>()
        var fields: [TLVField] = []
        for _ in 0..<count {
            if depth > 0 && !tags.contains(0xFFFF) && Int.random(in: 0..<4, using: &self) == 0 {
                tags.insert(0xFFFF)
                fields.append(.container(self.fields(depth: depth - 1, maxCount: maxCount)))
                continue
            }
            var tag = UInt16.random(in: 0...0xFFFE, using: &self)
            while tags.contains(tag) { tag = UInt16.random(in: 0...0xFFFE, using: &self) }
            tags.insert(tag)
            fields.append(TLVField(tag: TLVTag(tag), bytes: bytes(Int.random(in: 0...40, using: &self))))
        }
        return fields
    }
}
