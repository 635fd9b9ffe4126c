/// The header's msg_type. Values outside the brief's table stay representable, because a receiver
/// checks and skips them rather than failing (FRAME-4) and the dissector shows them.
public struct MessageType: NamedWireValue {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let data = MessageType(rawValue: 0)
    public static let heartbeat = MessageType(rawValue: 1)
    public static let ack = MessageType(rawValue: 2)
    public static let control = MessageType(rawValue: 3)
    public static let readReceipt = MessageType(rawValue: 4)

    /// The brief's name (`DATA`, `READ_RECEIPT`, ...), or nil for an undefined value.
    public var name: String? {
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
