import DecafWire

/// One direction of a proxied connection with its toxics applied in order: bytes and the end of
/// the sender's stream go in with the time they came, and come out as what to write, end, close or
/// reset, and when. Pure: the time and a seeded generator are given, so a test or a `--seed` replays a run.
public struct ToxicPipe: Sendable {
    /// Something to do to the receiving side, `at` a time since the connection opened.
    public enum Passage: Hashable, Sendable {
        /// Write these bytes.
        case bytes([UInt8], at: Duration)
        /// The sender ended its stream (a FIN): the receiver's stream ends after every byte before
        /// it, and the other direction goes on (a half-close, as TCP and toxiproxy pass it).
        case end(at: Duration)
        /// A toxic cuts the connection: both sides are closed.
        case close(at: Duration)
        /// A toxic resets the connection (TCP RST).
        case reset(at: Duration)

        /// When to do it, from the connection's opening.
        public var at: Duration {
            switch self {
            case let .bytes(_, at), let .end(at), let .close(at), let .reset(at): at
            }
        }

        /// The same, at `time`.
        func moved(to time: Duration) -> Passage {
            switch self {
            case let .bytes(bytes, _): .bytes(bytes, at: time)
            case .end: .end(at: time)
            case .close: .close(at: time)
            case .reset: .reset(at: time)
            }
        }

        /// The same, no earlier than `floor`.
        func notBefore(_ floor: Duration) -> Passage {
            at < floor ? moved(to: floor) : self
        }
    }

    private struct Stage: Sendable {
        var toxic: Toxic
        var toxicity: Double
        /// What the toxic keeps from one chunk to the next.
        var state: ToxicStage
    }

    /// What the toxics on frames did, so far.
    public struct FrameCounts: Hashable, Sendable, Encodable {
        /// Frames the toxics on frames saw.
        public var seen = 0
        /// Frames dropped.
        public var dropped = 0
        /// Frames sent twice.
        public var duplicated = 0
        /// Frames corrupted.
        public var corrupted = 0
        /// Frames cut short.
        public var cut = 0

        /// Nothing counted yet.
        public init() {}

        /// What happened after `earlier`, a count these grew from.
        public func since(_ earlier: FrameCounts) -> FrameCounts {
            var change = FrameCounts()
            change.seen = seen - earlier.seen
            change.dropped = dropped - earlier.dropped
            change.duplicated = duplicated - earlier.duplicated
            change.corrupted = corrupted - earlier.corrupted
            change.cut = cut - earlier.cut
            return change
        }

        /// Adds `other`'s counts to these.
        public mutating func add(_ other: FrameCounts) {
            seen += other.seen
            dropped += other.dropped
            duplicated += other.duplicated
            corrupted += other.corrupted
            cut += other.cut
        }
    }

    private var stages: [Stage]
    /// The generator and the frame counts the toxics share.
    private var context: ToxicContext
    /// Cuts the stream into frames when a toxic acts on frames.
    private var cutter: FrameCutter?
    /// What the toxics on frames did so far.
    public var frames: FrameCounts { context.frames }
    /// The latest time anything was let out: a stream is never reordered, also when its toxics
    /// change.
    private var latest: Duration = .zero

    /// A pipe applying `toxics` in order, each always, drawing from `seed`.
    public init(toxics: [Toxic], seed: UInt64) {
        self.init(applying: toxics.map { ActiveToxic($0) }, seed: seed)
    }

    /// A pipe applying `toxics`, each with its toxicity.
    public init(applying toxics: [ActiveToxic], seed: UInt64) {
        stages = toxics.map { Stage(toxic: $0.toxic, toxicity: $0.toxicity, state: ToxicStage()) }
        context = ToxicContext(seed: seed)
        cutter = toxics.contains(where: \.toxic.isOnFrames) ? FrameCutter() : nil
    }

    /// Whether bytes come out as they go in, at once and unchanged: no toxic, and no frame
    /// cutter holding part of a frame. A shell may then carry them without asking the pipe.
    public var passesThrough: Bool { stages.isEmpty && cutter == nil }

    /// The cuts the toxics schedule when the connection opens at `now`.
    public mutating func opened(at now: Duration) -> [Passage] {
        cuts(of: stages.indices, at: now)
    }

    /// Puts `toxics` in place of the present ones at `now`, while the connection lives: a toxic
    /// that stays keeps its state, and nothing is let out before what already was. Returns the
    /// cuts the new toxics schedule.
    public mutating func replace(with toxics: [ActiveToxic], at now: Duration) -> [Passage] {
        var old = stages
        var added: [Int] = []
        stages = toxics.enumerated().map { index, active in
            if let kept = old.firstIndex(where: { $0.toxic == active.toxic && $0.toxicity == active.toxicity }) { return old.remove(at: kept) }
            added.append(index)
            return Stage(toxic: active.toxic, toxicity: active.toxicity, state: ToxicStage())
        }
        if cutter == nil && toxics.contains(where: \.toxic.isOnFrames) { cutter = FrameCutter(joiningMidway: true) }
        // A timeout toxic taken away closes the connection it held, as toxiproxy's cleanup does.
        let removedTimeout = old.contains { $0.toxic.kind.closesWhenRemoved }
        return cuts(of: added, at: now) + (removedTimeout ? [.close(at: max(now, latest))] : [])
    }

    private mutating func cuts(of indices: some Sequence<Int>, at now: Duration) -> [Passage] {
        var passages: [Passage] = []
        for index in indices where context.chosen(stages[index].toxicity) {
            if let cut = stages[index].toxic.kind.cut(openedAt: now) { passages.append(cut) }
        }
        return passages
    }

    /// What becomes of `bytes` that came at `now`.
    public mutating func received(_ bytes: [UInt8], at now: Duration) -> [Passage] {
        guard var cutter else { return run([.bytes(bytes, at: now)], framed: false) }
        let pieces = cutter.cut(bytes)
        self.cutter = cutter
        return pieces.flatMap { piece in
            if piece.isFrame { context.frames.seen += 1 }
            return run([.bytes(piece.bytes, at: now)], framed: piece.isFrame)
        }
    }

    /// What becomes of the end of the sender's stream at `now`: the bytes a frame toxic still
    /// held, then the end, after everything let out before it.
    public mutating func ended(at now: Duration) -> [Passage] {
        let rest = cutter?.rest() ?? []
        return (rest.isEmpty ? [] : run([.bytes(rest, at: now)], framed: false)) + run([.end(at: now)], framed: false)
    }

    private mutating func run(_ input: [Passage], framed: Bool) -> [Passage] {
        var passages = input
        for index in stages.indices {
            passages = passages.flatMap { pass($0, through: index, framed: framed) }
        }
        return passages.map { passage in
            let kept = passage.notBefore(latest)
            latest = kept.at
            return kept
        }
    }

    private mutating func pass(_ passage: Passage, through index: Int, framed: Bool) -> [Passage] {
        var stage = stages[index]
        defer { stages[index] = stage }
        guard case let .bytes(bytes, now) = passage else {
            // An end or a cut keeps its place behind what went before it.
            let at = max(passage.at + stage.toxic.kind.closeDelay, stage.state.last)
            stage.state.last = at
            return [passage.moved(to: at)]
        }
        // A chunk or frame the toxic spares (toxicity) still keeps its place behind earlier ones.
        guard context.chosen(stage.toxicity) else { return stage.state.keepingOrder(bytes, at: now) }
        return stage.toxic.kind.pass(bytes, at: now, framed: framed, in: &stage.state, with: &context)
    }
}
