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

    /// The types the brief defines.
    public static let known: [MessageType] = [.data, .heartbeat, .ack, .control, .readReceipt]

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

    /// True for the types a receiver acknowledges with an ACK (EX-1, EX-2).
    public var isAcknowledged: Bool { self == .data || self == .control || self == .readReceipt || self == .heartbeat }
}
