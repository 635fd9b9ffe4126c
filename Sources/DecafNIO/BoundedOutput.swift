/// What Decaf keeps of an output that a target controls (a testee's standard error, the bytes a
/// server sends): the first `headLimit` bytes and the last `tailLimit`, and a count of everything,
/// so a target that writes without end costs a fixed amount of memory however long it goes on.
/// Pure: the caller appends what it read.
public struct BoundedOutput: Sendable, Hashable {
    /// How many of the first bytes are kept.
    public let headLimit: Int
    /// How many of the last bytes are kept.
    public let tailLimit: Int
    /// The first bytes, up to `headLimit`.
    public private(set) var head: [UInt8] = []
    /// The last bytes after the head, up to `tailLimit`, as a ring starting at `tailStart`.
    private var ring: [UInt8] = []
    private var tailStart = 0
    /// Every byte appended.
    public private(set) var total = 0

    /// An empty output keeping at most `head` first bytes and `tail` last ones.
    public init(head: Int, tail: Int) {
        precondition(head >= 0 && tail >= 0)
        headLimit = head
        tailLimit = tail
    }

    /// Adds what was read: counted, and kept as far as the limits allow.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        total += bytes.count
        var rest = bytes[...]
        if head.count < headLimit {
            let taken = rest.prefix(headLimit - head.count)
            head += taken
            rest = rest.dropFirst(taken.count)
        }
        guard tailLimit > 0, !rest.isEmpty else { return }
        if rest.count >= tailLimit {
            ring = Array(rest.suffix(tailLimit))
            tailStart = 0
            return
        }
        // Fill the ring, then overwrite its oldest bytes: at most two copies, wrapping once.
        let filling = rest.prefix(tailLimit - ring.count)
        ring += filling
        rest = rest.dropFirst(filling.count)
        while !rest.isEmpty {
            let piece = rest.prefix(tailLimit - tailStart)
            ring.replaceSubrange(tailStart..<(tailStart + piece.count), with: piece)
            tailStart = (tailStart + piece.count) % tailLimit
            rest = rest.dropFirst(piece.count)
        }
    }

    /// The last bytes kept after the head, in order.
    public var tail: [UInt8] { Array(ring[tailStart...] + ring[..<tailStart]) }

    /// Bytes appended but kept in neither the head nor the tail.
    public var omitted: Int { total - head.count - ring.count }

    /// Everything kept, head then tail; `marker` between them when bytes were left out.
    public func text(marker: (Int) -> String = { "\n[... \($0) bytes not kept ...]\n" }) -> String {
        String(decoding: head, as: UTF8.self) + (omitted > 0 ? marker(omitted) : "") + String(decoding: tail, as: UTF8.self)
    }
}
