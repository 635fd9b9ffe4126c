/// The high 8 bits of a sequence number (SEQ-1). Each sender keeps one counter per category.
public struct SequenceCategory: BriefNamedWireValue {
    /// The category: the sequence's high 8 bits.
    public var rawValue: UInt8
    /// The category of this value, defined by the brief or not.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0, NORMAL: DATA and READ_RECEIPT frames.
    @inlinable public static var normal: SequenceCategory { SequenceCategory(rawValue: 0) }
    /// 1, HEARTBEAT.
    @inlinable public static var heartbeat: SequenceCategory { SequenceCategory(rawValue: 1) }
    /// 2, CONTROL.
    @inlinable public static var control: SequenceCategory { SequenceCategory(rawValue: 2) }
    /// 3, MEDIA.
    @inlinable public static var media: SequenceCategory { SequenceCategory(rawValue: 3) }
    /// 4, BROADCAST.
    @inlinable public static var broadcast: SequenceCategory { SequenceCategory(rawValue: 4) }

    /// The brief's name, or nil for a category it does not define.
    @inlinable
    public var briefName: StaticString? {
        switch rawValue {
        case 0: "NORMAL"
        case 1: "HEARTBEAT"
        case 2: "CONTROL"
        case 3: "MEDIA"
        case 4: "BROADCAST"
        default: nil
        }
    }

    /// The category a sender uses for `type` (SEQ-2). DATA frames may also travel as MEDIA or
    /// BROADCAST; ACK frames carry the acknowledged frame's sequence and have no category of their
    /// own; undefined message types have none either. Returns nil when any category is fine.
    public static func expected(for type: MessageType) -> [SequenceCategory]? {
        switch type {
        case .data: [.normal, .media, .broadcast]
        case .readReceipt: [.normal]
        case .heartbeat: [.heartbeat]
        case .control: [.control]
        default: nil
        }
    }

    /// The category a sender normally gives a frame of `type`: the first the brief names for it,
    /// NORMAL where any is fine.
    public static func usual(for type: MessageType) -> SequenceCategory {
        expected(for: type)?.first ?? .normal
    }

    /// True when a frame of `type` with this category breaks SEQ-2 (a warning, never fatal).
    /// Asked of every frame a capture shows, so it builds no list.
    public func mismatches(_ type: MessageType) -> Bool {
        switch type {
        case .data: self != .normal && self != .media && self != .broadcast
        case .readReceipt: self != .normal
        case .heartbeat: self != .heartbeat
        case .control: self != .control
        default: false
        }
    }
}
