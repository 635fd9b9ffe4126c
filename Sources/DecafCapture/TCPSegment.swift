/// A TCP segment taken out of a captured packet, in place: its payload is valid as long as the
/// packet's bytes are.
public struct TCPSegment {
    public var source: TCPEndpoint
    public var destination: TCPEndpoint
    public var sequence: UInt32
    /// The next sequence number the sender expects from the other side (with the ACK flag).
    public var acknowledgment: UInt32
    public var flags: Flags
    /// The payload bytes that were captured.
    public var payload: UnsafeRawBufferPointer
    /// Payload bytes that were sent but not captured (the snapshot length cut the packet short).
    public var missingPayload: Int

    public struct Flags: OptionSet, Sendable, Hashable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let fin = Flags(rawValue: 0x01)
        public static let syn = Flags(rawValue: 0x02)
        public static let rst = Flags(rawValue: 0x04)
        public static let psh = Flags(rawValue: 0x08)
        public static let ack = Flags(rawValue: 0x10)
    }

    public init(source: TCPEndpoint, destination: TCPEndpoint, sequence: UInt32, acknowledgment: UInt32 = 0, flags: Flags, payload: UnsafeRawBufferPointer,
                missingPayload: Int = 0) {
        self.source = source
        self.destination = destination
        self.sequence = sequence
        self.acknowledgment = acknowledgment
        self.flags = flags
        self.payload = payload
        self.missingPayload = missingPayload
    }

    /// Sequence space the segment occupies: its payload as sent, plus one each for SYN and FIN.
    public var sequenceLength: Int {
        payload.count + missingPayload + (flags.contains(.syn) ? 1 : 0) + (flags.contains(.fin) ? 1 : 0)
    }
}
