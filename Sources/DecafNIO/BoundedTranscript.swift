/// A transcript kept within a memory bound whatever the other side sends: every entry until the
/// head holds `headLimit` bytes or entries, then only the last entries, up to `tailLimit` of each;
/// what falls between is counted and stands in the transcript as one entry that says how much was
/// not kept (`TranscriptEntry.notKept`). An entry's bytes beyond `entryLimit` are cut, its label
/// saying how many there were. Pure: the caller appends as the bytes cross.
public struct BoundedTranscript: Sendable {
    /// Bytes of the entries kept from the start.
    public let headLimit: Int
    /// Bytes of the entries kept from the end.
    public let tailLimit: Int
    /// Bytes kept of any one entry.
    public let entryLimit: Int
    private var head: [TranscriptEntry] = []
    private var headBytes = 0
    /// The tail, oldest first from `tailStart`; entries before it are dropped in batches.
    private var tail: [TranscriptEntry] = []
    private var tailStart = 0
    private var tailBytes = 0
    /// What fell between the head and the tail: entries, their bytes, and when the first crossed.
    private var droppedEntries = 0
    private var droppedBytes = 0
    private var droppedSince: Duration?

    /// The bound of every transcript Decaf keeps of a connection: 256 KiB or 1,000 entries each
    /// for the head and the tail, 64 KiB of any one entry.
    public init(head: Int = 256 << 10, tail: Int = 256 << 10, entry: Int = 64 << 10) {
        headLimit = head
        tailLimit = tail
        entryLimit = entry
    }

    /// Entries kept at most in the head, and in the tail.
    static let entriesLimit = 1000

    /// Adds what crossed next: kept in the head while it has room, then in the tail, whose oldest entries are counted and dropped.
    public mutating func append(_ entry: TranscriptEntry) {
        var entry = entry
        if entry.bytes.count > entryLimit {
            entry.label = "\(entry.label ?? (entry.direction == .received ? "received" : "sent")) (first \(entryLimit) of \(entry.bytes.count) bytes)"
            entry.bytes = Array(entry.bytes.prefix(entryLimit))
        }
        if droppedSince == nil, tail.isEmpty, headBytes + entry.bytes.count <= headLimit, head.count < Self.entriesLimit {
            head.append(entry)
            headBytes += entry.bytes.count
            return
        }
        tail.append(entry)
        tailBytes += entry.bytes.count
        while tailBytes > tailLimit || tail.count - tailStart > Self.entriesLimit {
            let oldest = tail[tailStart]
            tailStart += 1
            tailBytes -= oldest.bytes.count
            droppedEntries += 1
            droppedBytes += oldest.bytes.count
            if droppedSince == nil { droppedSince = oldest.time }
        }
        if tailStart >= 64 && tailStart * 2 >= tail.count {
            tail.removeFirst(tailStart)
            tailStart = 0
        }
    }

    /// Entries appended but not kept, and their bytes.
    public var omitted: (entries: Int, bytes: Int) { (droppedEntries, droppedBytes) }

    /// Everything kept, in order, with one entry standing for what was not.
    public var entries: [TranscriptEntry] {
        guard let since = droppedSince else { return head + tail[tailStart...] }
        var gap = TranscriptEntry(direction: .received, time: since, bytes: [], label: "\(droppedEntries) reads and writes not kept (\(droppedBytes) bytes): the transcript keeps its first and last \(headLimit >> 10) KiB")
        gap.notKept = droppedBytes
        return head + [gap] + tail[tailStart...]
    }
}
