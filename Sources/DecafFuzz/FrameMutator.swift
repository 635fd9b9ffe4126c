import DecafSession
import DecafWire

/// Mutates frames with the protocol's structure: header fields set to their interesting values,
/// the TLV tree edited at any depth (fields inserted, deleted, duplicated, swapped, emptied,
/// spliced from another frame, nested deeper, lengths that lie, values set to what decoders trip
/// on), bodies compressed, zlib streams corrupted, bombs up to the body limit, and plain byte
/// edits; a compressed body is inflated, edited as a plain one is, and compressed again. Most
/// inputs then get their body_length and checksum repaired, so they reach the parser behind them.
/// Values from the corpus's own fields go into other fields (`CorpusDictionary`), and the kinds of
/// edit are weighted by the coverage they gained (`MutationPayoff`, told by `record`). Pure and seeded:
/// the same seed, corpus and payoffs give the same inputs.
public struct FrameMutator {
    private var random: SeededRandom
    /// The limits of the decoder under test: bombs are built around its body limit.
    public let options: DecodeOptions
    /// The share of inputs whose body_length and checksum are repaired after mutating.
    public let repairShare: Double
    /// Compressed bombs by the length they inflate to, made once each.
    private var bombs: [Int: [UInt8]] = [:]
    /// Inflates the compressed bodies mutated inside, its buffers kept from one to the next (a
    /// mutator is used by one campaign loop at a time).
    private let inflater: ZlibInflater
    /// What the kinds of edit have paid so far, and their weights.
    private var payoff = MutationPayoff()
    /// The values of the corpus's fields.
    private var dictionary: CorpusDictionary

    /// A mutator drawing from `seed`, with the values of `corpus`'s fields for its dictionary.
    public init(seed: UInt64, options: DecodeOptions = DecodeOptions(), repairShare: Double = 0.9, corpus: [[UInt8]] = []) {
        random = SeededRandom(seed: seed)
        self.options = options
        self.repairShare = repairShare
        inflater = ZlibInflater()
        dictionary = CorpusDictionary(corpus, inflater: inflater, bodyLimit: options.bodyLimit)
    }

    /// Notes that input `number`, made with `mutations`, paid off (a new edge or count of an
    /// instrumented target) or not: the kinds of edit it used are weighted by it, from the epoch
    /// after next on (`MutationPayoff`).
    public mutating func record(_ mutations: [FrameMutation], paid: Bool, number: Int) {
        payoff.record(mutations, paid: paid, number: number)
    }

    /// Adds the values of `frame`'s fields to the dictionary (an input the corpus kept).
    public mutating func learn(from frame: [UInt8]) {
        dictionary.learn(from: frame, inflater: inflater, bodyLimit: options.bodyLimit)
    }

    /// A mutant of `frame` (one to three mutations), taking spliced fields from `donor`; `number`
    /// is the input's in its campaign, from 1, which says which payoffs weigh its edits.
    public mutating func mutate(_ frame: [UInt8], donor: [UInt8] = [], number: Int = 1) -> (bytes: [UInt8], mutations: [FrameMutation]) {
        payoff.prepare(for: number)
        var bytes = frame
        var mutations: [FrameMutation] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            if let mutation = mutateOnce(&bytes, donor: donor) { mutations.append(mutation) }
        }
        // A mutant that lies in body_length or the checksum on purpose keeps its lie.
        let liesInHeader = mutations.contains { mutation in
            if case let .headerField(field, _) = mutation { return field == .bodyLength || field == .checksum }
            return false
        }
        if !liesInHeader, Double.random(in: 0..<1, using: &random) < repairShare, bytes.count >= FrameHeader.size {
            bytes = FrameRepair.repaired(bytes)
            mutations.append(.repaired)
        }
        return (bytes, mutations)
    }

    private mutating func mutateOnce(_ bytes: inout [UInt8], donor: [UInt8]) -> FrameMutation? {
        // A compressed body is mutated inside as often as a plain one is: inflated, edited as a
        // plain body is, and compressed again (what a byte edit of the stream never reaches).
        if Self.isCompressed(bytes), Bool.random(using: &random), let inside = mutateInflated(&bytes, donor: donor) { return inside }
        switch payoff.pick(using: &random) {
        case .header: return mutateHeader(&bytes)
        case .fields: return mutateFields(&bytes, donor: donor) ?? mutateBytes(&bytes)
        case .compression: return mutateCompression(&bytes) ?? mutateBytes(&bytes)
        case .bytes: return mutateBytes(&bytes)
        }
    }

    /// Whether `bytes` hold a whole header marked ZLIB and a body after it.
    private static func isCompressed(_ bytes: [UInt8]) -> Bool {
        bytes.count > FrameHeader.size && bytes[FrameHeader.Field.compressType.offset] == CompressType.zlib.rawValue
    }

    /// A field or byte edit of the inflated body of a compressed frame, compressed again; nil when
    /// the body does not inflate within the body limit.
    private mutating func mutateInflated(_ bytes: inout [UInt8], donor: [UInt8]) -> FrameMutation? {
        guard let inflated = try? inflater.inflate(bytes[FrameHeader.size...], limit: options.bodyLimit) else { return nil }
        var plain = Array(bytes[..<FrameHeader.size]) + inflated
        plain[FrameHeader.Field.compressType.offset] = CompressType.none.rawValue
        let mutation = mutateFields(&plain, donor: donor) ?? mutateBytes(&plain, from: FrameHeader.size)
        bytes = Array(bytes[..<FrameHeader.size]) + ZlibCompressor().compress(plain[FrameHeader.size...])
        return .insideCompressedBody(mutation)
    }

    // MARK: Header

    private mutating func mutateHeader(_ bytes: inout [UInt8]) -> FrameMutation? {
        guard bytes.count >= FrameHeader.size else { return nil }
        let field = FrameHeader.Field.allCases.randomElement(using: &random)!
        let current = field.value(in: bytes)
        var values = interestingValues(of: field, current: current, bodyCount: bytes.count - FrameHeader.size)
        values.append(current &+ 1)
        values.append(current &- 1)
        field.set(values.randomElement(using: &random)!, in: &bytes)
        let value = field.value(in: bytes)
        return .headerField(field, value)
    }

    private func interestingValues(of field: FrameHeader.Field, current: UInt32, bodyCount: Int) -> [UInt32] {
        switch field {
        case .magic: [0, 0xDECA_FBAE, 0xADFB_CADE, 0xFFFF_FFFF]
        case .versionMajor: [0, 2, 0xFF]
        case .versionMinor: [1, 0x7F, 0xFF]
        case .messageType: (0...5).map(UInt32.init) + [0x00FF, 0x8000, 0xFFFF]
        case .sequence: [0, 0x00FF_FFFF, 0x0100_0000, 0x0200_0001, 0x0300_0001, 0xFF00_0000, 0xFFFF_FFFF]
        case .timestamp: [0, 1, 0x7FFF_FFFF, 0xFFFF_FFFF]
        case .encryptType: [1, 2, 3, 0xFF]
        case .compressType: [1, 2, 0xFF]
        case .sessionID: [0, 1, 0xFFFF]
        case .bodyLength:
            [0, UInt32(bodyCount + 1), UInt32(max(0, bodyCount - 1)), UInt32(options.bodyLimit), UInt32(options.bodyLimit + 1), 0xFFFF_FFFF]
        case .checksum: [0, current.byteSwapped, current ^ 1]
        }
    }

    // MARK: TLV tree

    /// Edits the body's TLV fields, when the body is plain and parses (duplicates and any depth
    /// allowed, so a mutant's mutant can be edited again): at the top level or inside any
    /// container, chosen at random.
    private mutating func mutateFields(_ bytes: inout [UInt8], donor: [UInt8]) -> FrameMutation? {
        guard var tree = Self.fields(of: bytes) else { return nil }
        let level = Self.levels(of: tree).randomElement(using: &random)!
        var fields = Self.fields(at: level, in: tree)
        let mutation: FrameMutation
        switch Int.random(in: 0..<9, using: &random) {
        case 8:
            let valued = fields.indices.filter { if case .bytes = fields[$0].content { true } else { false } }
            guard let index = valued.randomElement(using: &random) else { return nil }
            let (what, value) = interestingValue(for: fields[index])
            fields[index].content = .bytes(value)
            mutation = .value(fields[index].tag, what)
        case 0:
            let field = randomField()
            fields.insert(field, at: Int.random(in: 0...fields.count, using: &random))
            mutation = .insertedField(field.tag, length: Self.valueLength(field))
        case 1:
            guard !fields.isEmpty else { return nil }
            mutation = .deletedField(fields.remove(at: Int.random(in: 0..<fields.count, using: &random)).tag)
        case 2:
            guard !fields.isEmpty else { return nil }
            let index = Int.random(in: 0..<fields.count, using: &random)
            fields.insert(fields[index], at: index + 1)
            mutation = .duplicatedField(fields[index].tag)
        case 3:
            guard fields.count >= 2 else { return nil }
            let first = Int.random(in: 0..<fields.count, using: &random)
            let second = (first + Int.random(in: 1..<fields.count, using: &random)) % fields.count
            fields.swapAt(first, second)
            mutation = .swappedFields(fields[second].tag, fields[first].tag)
        case 4:
            for _ in 0..<Int.random(in: 1...5, using: &random) { fields = [.container(fields)] }
            mutation = .nestedDeeper(depth: Self.depth(of: Self.replacing(level, with: fields, in: tree)) - 1)
        case 5:
            guard !fields.isEmpty else { return nil }
            let index = Int.random(in: 0..<fields.count, using: &random)
            fields[index].content = fields[index].tag == .container ? .fields([]) : .bytes([])
            mutation = .emptiedField(fields[index].tag)
        case 6:
            guard let donated = Self.fields(of: donor), let field = donated.randomElement(using: &random) else { return nil }
            fields.insert(field, at: Int.random(in: 0...fields.count, using: &random))
            mutation = .splicedField(field.tag)
        default:
            // A top-level field's length made to lie, written into the encoded body.
            guard !tree.isEmpty else { return nil }
            var body = TLVEncoder.encode(tree)
            let index = Int.random(in: 0..<tree.count, using: &random)
            let start = tree[..<index].reduce(0) { $0 + TLVEncoder.fieldHeaderSize + Self.valueLength($1) }
            let length = Self.valueLength(tree[index])
            let delta = [1, -1, 2, 4096, -length, Int(UInt32.max) - length].randomElement(using: &random)!
            // The length is the four bytes after the field's tag.
            body.replaceSubrange((start + 2)..<(start + 6), with: withUnsafeBytes(of: UInt32(truncatingIfNeeded: length + delta).bigEndian, Array.init))
            bytes = Array(bytes[..<FrameHeader.size]) + body
            return .lyingLength(tree[index].tag, by: delta)
        }
        tree = Self.replacing(level, with: fields, in: tree)
        bytes = Array(bytes[..<FrameHeader.size]) + TLVEncoder.encode(tree)
        return mutation
    }

    /// Every level of `tree` that holds fields: the top (`[]`) and each container, as the path of
    /// child indexes that leads to it.
    static func levels(of tree: [TLVField], at path: [Int] = []) -> [[Int]] {
        var levels = [path]
        for (index, field) in tree.enumerated() {
            if case let .fields(children) = field.content { levels += Self.levels(of: children, at: path + [index]) }
        }
        return levels
    }

    /// The fields at `level` of `tree`.
    static func fields(at level: [Int], in tree: [TLVField]) -> [TLVField] {
        guard let first = level.first else { return tree }
        guard case let .fields(children) = tree[first].content else { return [] }
        return fields(at: Array(level.dropFirst()), in: children)
    }

    /// `tree` with the fields at `level` replaced by `fields`.
    static func replacing(_ level: [Int], with fields: [TLVField], in tree: [TLVField]) -> [TLVField] {
        guard let first = level.first else { return fields }
        guard case let .fields(children) = tree[first].content else { return tree }
        var tree = tree
        tree[first].content = .fields(replacing(Array(level.dropFirst()), with: fields, in: children))
        return tree
    }

    /// The body's fields when the frame is whole, plain and its body parses.
    static func fields(of bytes: [UInt8]) -> [TLVField]? {
        guard bytes.count >= FrameHeader.size, bytes[FrameHeader.Field.encryptType.offset] == 0,
              bytes[FrameHeader.Field.compressType.offset] == 0 else { return nil }
        return try? TLVDecoder(options: TLVOptions(depthLimit: TLVOptions.maximumDepthLimit, allowsDuplicateTags: true))
            .decode(bytes[FrameHeader.size...])
    }

    /// A value decoders trip on, for `field`, and its name: bytes that are not UTF-8, a lone NUL,
    /// all 0xFF, a value one byte either side of its length, a long one, or a value of another
    /// field of the corpus.
    private mutating func interestingValue(for field: TLVField) -> (String, [UInt8]) {
        let length = Self.valueLength(field)
        let values: [(String, [UInt8])] = [
            ("bytes that are not UTF-8 (C3 28)", [0xC3, 0x28]),
            ("a lone 0xFF", [0xFF]),
            ("a NUL", [0x00]),
            ("\(max(1, length)) bytes of 0xFF", [UInt8](repeating: 0xFF, count: max(1, length))),
            ("\(length + 1) bytes", [UInt8](repeating: 0x41, count: length + 1)),
            ("\(max(0, length - 1)) bytes", [UInt8](repeating: 0x41, count: max(0, length - 1))),
            ("4,096 bytes", [UInt8](repeating: 0x41, count: 4096)),
        ]
        // A value of the corpus, as often as each of the others.
        let pick = Int.random(in: 0..<(values.count + (dictionary.values.isEmpty ? 0 : 1)), using: &random)
        guard pick == values.count, let value = dictionary.values.randomElement(using: &random) else { return values[pick] }
        return ("a value of the corpus (\(value.count) bytes)", value)
    }

    private mutating func randomField() -> TLVField {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return TLVField(tag: .text, bytes: [])
        case 1: return TLVField(tag: .text, text: ["hello", "é", "\u{0}", String(repeating: "x", count: 300)].randomElement(using: &random)!)
        case 2: return .container([TLVField(tag: .text, bytes: [])])
        default:
            let tag = TLVTag.known.filter { $0 != .container }.randomElement(using: &random)!
            return TLVField(tag: tag, bytes: (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
    }

    static func valueLength(_ field: TLVField) -> Int {
        switch field.content {
        case let .bytes(bytes): bytes.count
        case let .fields(children): children.reduce(0) { $0 + TLVEncoder.fieldHeaderSize + valueLength($1) }
        }
    }

    static func depth(of fields: [TLVField]) -> Int {
        fields.map { field in
            if case let .fields(children) = field.content { 1 + depth(of: children) } else { 1 }
        }.max() ?? 0
    }

    // MARK: Compression

    private mutating func mutateCompression(_ bytes: inout [UInt8]) -> FrameMutation? {
        guard bytes.count >= FrameHeader.size else { return nil }
        let compressType = FrameHeader.Field.compressType.offset
        if bytes[compressType] == CompressType.zlib.rawValue, bytes.count > FrameHeader.size {
            let at = Int.random(in: 0..<(bytes.count - FrameHeader.size), using: &random)
            bytes[FrameHeader.size + at] ^= UInt8.random(in: 1...255, using: &random)
            return .corruptedZlibStream(at: at)
        }
        if Int.random(in: 0..<12, using: &random) == 0 {
            // A run of zeros in one field, inflating to the limit or one byte either side of it:
            // rare, as a bomb costs the testee (and its answer) the whole limit.
            let inflated = max(TLVEncoder.fieldHeaderSize, options.bodyLimit + [0, 1, -1].randomElement(using: &random)!)
            bytes = Array(bytes[..<FrameHeader.size]) + bomb(inflatingTo: inflated)
            bytes[compressType] = CompressType.zlib.rawValue
            return .compressionBomb(inflatedLength: inflated)
        }
        let body = bytes[FrameHeader.size...]
        bytes = Array(bytes[..<FrameHeader.size]) + ZlibCompressor().compress(body)
        bytes[compressType] = CompressType.zlib.rawValue
        return .compressedBody(inflatedLength: body.count)
    }

    /// A zlib stream of one field of zeros that inflates to `length` bytes.
    private mutating func bomb(inflatingTo length: Int) -> [UInt8] {
        if let made = bombs[length] { return made }
        let payload = TLVEncoder.encode([TLVField(tag: .custom, bytes: [UInt8](repeating: 0, count: length - TLVEncoder.fieldHeaderSize))])
        let made = ZlibCompressor().compress(payload)
        bombs[length] = made
        return made
    }

    // MARK: Bytes

    /// A byte edit at or after byte `start` (the body's first, inside a compressed body).
    private mutating func mutateBytes(_ bytes: inout [UInt8], from start: Int = 0) -> FrameMutation {
        guard bytes.count > start else {
            bytes += FrameHeader.magicBytes
            return .insertedBytes(at: start, count: 4)
        }
        let at = Int.random(in: start..<bytes.count, using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &random)
            return .flippedBit(at: at)
        case 1:
            let value = [0, 0xFF, 0x7F, 0x80, 1].randomElement(using: &random)!
            bytes[at] = UInt8(value)
            return .setByte(at: at, to: UInt8(value))
        case 2:
            let count = Int.random(in: 1...16, using: &random)
            bytes.insert(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
            return .insertedBytes(at: at, count: count)
        case 3:
            let count = min(bytes.count - at, Int.random(in: 1...16, using: &random))
            bytes.removeSubrange(at..<(at + count))
            return .deletedBytes(at: at, count: count)
        default:
            bytes.removeSubrange(at...)
            return .truncated(to: at)
        }
    }
}
