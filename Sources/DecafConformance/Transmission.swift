import DecafWire

/// Bytes a case writes to the target in one step: frames, parts of frames or anything else, how
/// they are cut into writes, and where the run's clock is written into them.
public struct Transmission: Hashable, Sendable {
    /// What the bytes are, for reports (`DATA seq NORMAL/1`, `header only`, ...).
    public var label: String
    public var bytes: [UInt8]
    /// Sizes of the writes the bytes are cut into, in order; what is left goes in a last write.
    /// Empty: one write.
    public var split: [Int]
    /// The pause between two writes, so each is likely to reach the target in a read of its own.
    public var pause: Duration
    /// Offsets of frame headers in `bytes` whose timestamp the run sets to its clock plus `skew`
    /// seconds when it sends them, so a target that enforces a timestamp window (TS-1) judges the
    /// frames by what they test; the run may give them a session of its own too. The checksum
    /// covers the body only, so it stays right.
    public var stamps: [Stamp]

    /// A frame header whose timestamp is taken from the run's clock.
    public struct Stamp: Hashable, Sendable {
        public var headerOffset: Int
        public var skew: Int64
        /// False for a frame whose timestamp is what it tests (TS-1): only its session is the run's.
        public var setsClock: Bool
        /// The frame's version is one minor above the receiver's highest (VER-2), as the receiver
        /// said it when the run began: what is refused depends on whom it is sent to.
        public var minorAboveReceiver: Bool

        public init(headerOffset: Int, skew: Int64 = 0, setsClock: Bool = true, minorAboveReceiver: Bool = false) {
            self.headerOffset = headerOffset
            self.skew = skew
            self.setsClock = setsClock
            self.minorAboveReceiver = minorAboveReceiver
        }
    }

    public init(label: String, bytes: [UInt8], split: [Int] = [], pause: Duration = .zero, stamps: [Stamp] = []) {
        self.label = label
        self.bytes = bytes
        self.split = split
        self.pause = pause
        self.stamps = stamps
    }

    /// The bytes as sent at `now` (UNIX seconds) to a receiver of `receiver`'s version: the stamped
    /// headers carry `now + skew` and, where they carry the catalog's session `replacing.from`, the
    /// run's session `replacing.to`; a header stamped `minorAboveReceiver` carries the receiver's
    /// major and a minor above its highest (its highest, 255, has none above: then 255).
    public func bytes(at now: UInt32?, replacing session: (from: SessionID, to: SessionID)? = nil, receiver: ProtocolVersion? = nil) -> [UInt8] {
        guard now != nil || session != nil || receiver != nil, !stamps.isEmpty else { return bytes }
        var out = bytes
        for stamp in stamps where stamp.headerOffset < out.count {
            // A header cut short is stamped in the fields it holds whole, as a whole one is: a
            // receiver may judge its timestamp before the rest arrives (interpretation 1, TS-1).
            let held = min(FrameHeader.size, out.count - stamp.headerOffset)
            var whole = Array(out[stamp.headerOffset..<(stamp.headerOffset + held)])
            whole += Array(repeating: 0, count: FrameHeader.size - held)
            guard var header = FrameHeader(decoding: whole) else { continue }
            let holds = { (field: FrameHeader.Field) in field.offset + field.size <= held }
            if let now, stamp.setsClock, holds(.timestamp) { header.timestamp = UInt32(clamping: max(0, Int64(now) + stamp.skew)) }
            if let session, holds(.sessionID), header.sessionID == session.from { header.sessionID = session.to }
            if let receiver, stamp.minorAboveReceiver, holds(.versionMinor) {
                header.version = ProtocolVersion(major: receiver.major, minor: receiver.minor == .max ? .max : receiver.minor + 1)
            }
            whole.withUnsafeMutableBytes { header.write(to: $0) }
            out.replaceSubrange(stamp.headerOffset..<(stamp.headerOffset + held), with: whole.prefix(held))
        }
        return out
    }

    /// The writes: `bytes` cut at the sizes in `split`.
    public func writes(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var writes: [ArraySlice<UInt8>] = []
        var start = 0
        for size in split where start < bytes.count {
            let end = min(bytes.count, start + size)
            writes.append(bytes[start..<end])
            start = end
        }
        if start < bytes.count || writes.isEmpty { writes.append(bytes[start...]) }
        return writes
    }

    /// The label of write `number` (from 1) of a transmission labelled `label` that goes out in parts.
    static func part(_ number: Int, of label: String) -> String { "part \(number): \(label)" }

    /// Whether a write labelled `written` carries (the start of) a transmission whose label starts
    /// with `label`: the whole transmission, or one of its parts.
    public static func write(_ written: String, carries label: String) -> Bool {
        if written.hasPrefix(label) { return true }
        guard written.hasPrefix("part "), let colon = written.firstIndex(of: ":") else { return false }
        return written[written.index(after: colon)...].dropFirst().hasPrefix(label)
    }

    /// The headers of the whole frames at the start of `bytes`, in order: what a write holds.
    public static func headers(in bytes: [UInt8]) -> [FrameHeader] {
        var headers: [FrameHeader] = []
        var offset = 0
        while offset + FrameHeader.size <= bytes.count, bytes[offset...].starts(with: FrameHeader.magicBytes),
              let header = FrameHeader(decoding: bytes[offset...]) {
            headers.append(header)
            let (next, overflow) = offset.addingReportingOverflow(FrameHeader.size + Int(header.bodyLength))
            if overflow { break }
            offset = next
        }
        return headers
    }
}
