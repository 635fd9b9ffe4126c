import DecafWire

/// Values taken from the corpus's own frames, for the mutator to put into other fields (AFL's
/// dictionary, drawn from the inputs rather than from the target's comparisons): the leaf values
/// of every body, inflated where compressed, of 1 to 64 bytes, each once, in the order met. The
/// inputs coverage keeps add theirs. Bounded at `limit` values. Pure.
struct CorpusDictionary: Sendable {
    /// The most values kept.
    static let limit = 256
    /// The longest value kept.
    static let longest = 64

    private(set) var values: [[UInt8]] = []
    private var seen = Set<[UInt8]>()

    /// The values of `corpus`'s frames.
    init(_ corpus: [[UInt8]], inflater: ZlibInflater, bodyLimit: Int) {
        for frame in corpus { learn(from: frame, inflater: inflater, bodyLimit: bodyLimit) }
    }

    /// Adds the leaf values of `frame`'s body, while there is room.
    mutating func learn(from frame: [UInt8], inflater: ZlibInflater, bodyLimit: Int) {
        guard values.count < Self.limit, frame.count > FrameHeader.size else { return }
        var plain = frame
        if plain[FrameHeader.Field.compressType.offset] == CompressType.zlib.rawValue {
            guard let inflated = try? inflater.inflate(frame[FrameHeader.size...], limit: bodyLimit) else { return }
            plain = Array(frame[..<FrameHeader.size]) + inflated
            plain[FrameHeader.Field.compressType.offset] = CompressType.none.rawValue
        }
        guard let fields = FrameMutator.fields(of: plain) else { return }
        add(fields)
    }

    private mutating func add(_ fields: [TLVField]) {
        for field in fields where values.count < Self.limit {
            switch field.content {
            case let .fields(children):
                add(children)
            case let .bytes(bytes):
                if (1...Self.longest).contains(bytes.count), seen.insert(bytes).inserted { values.append(bytes) }
            }
        }
    }
}
