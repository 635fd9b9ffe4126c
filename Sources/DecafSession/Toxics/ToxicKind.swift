/// One kind of toxic, in one file, as toxiproxy keeps each in toxics/*.go: its name, its
/// attributes (read from text, shown as JSON) and how it acts on a stream. `Toxic.kinds` lists
/// them; every catalog (the names, the command line's main attributes, the API's JSON) is derived
/// from that list.
public protocol ToxicKind: Hashable, Sendable {
    /// toxiproxy's type name, or Decaf's for its own toxics: `latency`, `drop_frames`.
    static var type: String { get }
    /// The attribute `TYPE=VALUE` sets on the command line; nil for a toxic without attributes.
    static var mainAttribute: String? { get }
    /// Whether it acts on whole frames: the pipe cuts the stream at frame boundaries first.
    static var isOnFrames: Bool { get }
    /// Reads the toxic from `attributes`, taking each it knows.
    init(_ attributes: inout ToxicAttributes) throws(ToxicProblem)
    /// Its attributes in toxiproxy's units (milliseconds, KB/s), as the control API shows them.
    var attributes: [String: ToxicAttributeValue] { get }
    /// Whether every byte the sender sends reaches the receiver once, unchanged and in order,
    /// before the end of its stream: the toxic only delays, slices or holds back. A proxy loses,
    /// adds or changes bytes only through a toxic for which this is false.
    var deliversEveryByte: Bool { get }
    /// How much later the end of a stream, or a cut, gets through.
    var closeDelay: Duration { get }
    /// The cut it schedules when a connection opens (or it is added) at `now`, if any.
    func cut(openedAt now: Duration) -> ToxicPipe.Passage?
    /// Whether taking the toxic away closes the connections it held, as toxiproxy's timeout does.
    var closesWhenRemoved: Bool { get }
    /// What becomes of a chunk (or, for a toxic on frames, a whole frame when `framed`) that
    /// came at `now` and that the toxic acts on (its toxicity chose it), with what it keeps and what
    /// the pipe shares among its toxics.
    func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage]
}

extension ToxicKind {
    /// By default none: a toxic without attributes.
    public static var mainAttribute: String? { nil }
    /// By default a toxic acts on chunks as they come, not on frames.
    public static var isOnFrames: Bool { false }
    /// By default no attributes.
    public var attributes: [String: ToxicAttributeValue] { [:] }
    /// By default a toxic only delays, slices or holds back: every byte gets through.
    public var deliversEveryByte: Bool { true }
    /// By default the end of a stream is not held back.
    public var closeDelay: Duration { .zero }
    /// By default no cut is scheduled.
    public func cut(openedAt now: Duration) -> ToxicPipe.Passage? { nil }
    /// By default taking the toxic away leaves its connections open.
    public var closesWhenRemoved: Bool { false }
}
