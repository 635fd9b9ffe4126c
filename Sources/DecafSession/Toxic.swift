/// One impairment of a proxied stream: a toxic of one of the kinds in `kinds`, each in a file of
/// its own (`LatencyToxic`, `DropFramesToxic`, ...), with toxiproxy's names and meanings, so what
/// people know from toxiproxy holds here; `blackhole`, `down`, `packet_loss` and the toxics on
/// frames are Decaf's own.
public struct Toxic: Hashable, Sendable, CustomStringConvertible {
    /// What the toxic is, with its attributes.
    public let kind: any ToxicKind

    /// The toxic `kind`.
    public init(_ kind: some ToxicKind) {
        self.kind = kind
    }

    /// Every kind of toxic, in the order help and messages list them: the one list every catalog
    /// (names, main attributes, the API's JSON) is derived from.
    public static let kinds: [any ToxicKind.Type] = [
        LatencyToxic.self, BandwidthToxic.self, SlicerToxic.self, SlowCloseToxic.self, TimeoutToxic.self, ResetPeerToxic.self,
        LimitDataToxic.self, NoopToxic.self, PacketLossToxic.self, BlackholeToxic.self, DownToxic.self, DropFramesToxic.self,
        DuplicateFramesToxic.self, CorruptFramesToxic.self, CutFramesToxic.self,
    ]

    /// The toxic of `type` read from `attributes`; every attribute must be one it has, unless the
    /// reading is lenient.
    public init(type: String, _ attributes: ToxicAttributes) throws(ToxicProblem) {
        guard let kind = Self.kinds.first(where: { $0.type == type }) else {
            throw ToxicProblem("'\(type)' is not a toxic; give \(Self.typeList)")
        }
        var attributes = attributes
        self.kind = try kind.init(&attributes)
        if !attributes.lenient, let unknown = attributes.untaken.first { throw ToxicProblem("\(type) has no attribute '\(unknown)'") }
    }

    /// The types, as a message lists them: `latency, bandwidth, ... or cut_frames`.
    public static var typeList: String {
        kinds.dropLast().map { $0.type }.joined(separator: ", ") + " or " + (kinds.last?.type ?? "")
    }

    /// Its type name: `latency`.
    public var type: String { Swift.type(of: kind).type }

    /// Whether the toxic acts on whole frames.
    public var isOnFrames: Bool { Swift.type(of: kind).isOnFrames }

    /// See `ToxicKind.deliversEveryByte`.
    public var deliversEveryByte: Bool { kind.deliversEveryByte }

    /// `latency jitter=50,latency=100`: the type, then the attributes in toxiproxy's units.
    public var description: String { "\(type) \(kind.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))" }

    /// Two toxics are equal when they are the same kind with the same attributes.
    public static func == (left: Toxic, right: Toxic) -> Bool { AnyHashable(left.kind) == AnyHashable(right.kind) }

    /// Hashes the kind and its attributes.
    public func hash(into hasher: inout Hasher) { AnyHashable(kind).hash(into: &hasher) }
}
