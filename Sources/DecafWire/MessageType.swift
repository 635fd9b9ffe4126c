/// The header's msg_type. Values outside the brief's table stay representable, because a receiver
/// checks and skips them rather than failing (FRAME-4) and the dissector shows them.
public struct MessageType: BriefNamedWireValue {
    /// The msg_type as it travels.
    public var rawValue: UInt16
    /// The msg_type of this value, defined by the brief or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0, DATA: a message; acknowledged, and delivered once.
    @inlinable public static var data: MessageType { MessageType(rawValue: 0) }
    /// 1, HEARTBEAT: keeps an idle connection alive; answered with an ACK.
    @inlinable public static var heartbeat: MessageType { MessageType(rawValue: 1) }
    /// 2, ACK: acknowledges the frame whose sequence it carries; never acknowledged itself.
    @inlinable public static var ack: MessageType { MessageType(rawValue: 2) }
    /// 3, CONTROL: the handshake and other control messages; acknowledged.
    @inlinable public static var control: MessageType { MessageType(rawValue: 3) }
    /// 4, READ_RECEIPT: says a DATA frame was read; sent only when READ_RECEIPT is agreed.
    @inlinable public static var readReceipt: MessageType { MessageType(rawValue: 4) }

    /// The brief's name (`DATA`, `READ_RECEIPT`, ...), or nil for an undefined value.
    @inlinable
    public var briefName: StaticString? {
        switch rawValue {
        case 0: "DATA"
        case 1: "HEARTBEAT"
        case 2: "ACK"
        case 3: "CONTROL"
        case 4: "READ_RECEIPT"
        default: nil
        }
    }

    /// Whether a receiver answers a frame of this type with an ACK: DATA, CONTROL and READ_RECEIPT
    /// (EX-1) and HEARTBEAT (EX-2); never ACK or an undefined type (EX-3).
    public var isAcknowledged: Bool {
        self == .data || self == .heartbeat || self == .control || self == .readReceipt
    }
}
