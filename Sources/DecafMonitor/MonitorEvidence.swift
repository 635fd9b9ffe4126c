import DecafCapture

/// What a verdict rests on: a frame (its number in the capture, the packet that completed it,
/// and when), or a packet without one (a FIN or a reset, `ending`).
public struct MonitorEvidence: Sendable, Hashable, Encodable, CustomStringConvertible {
    public var frame: Int?
    public var packet: Int
    public var time: CaptureTime
    /// For a packet that ended a direction: how.
    public var ending: TCPStreamEvent.Ending?

    public init(frame: Int, packet: Int, time: CaptureTime) {
        self.frame = frame
        self.packet = packet
        self.time = time
    }

    /// The packet whose FIN or reset ended a direction.
    public init(packet: Int, time: CaptureTime, ending: TCPStreamEvent.Ending) {
        self.packet = packet
        self.time = time
        self.ending = ending
    }

    public var description: String {
        if let frame { return "frame #\(frame) at \(time.timeOfDay)" }
        return "\(ending == .reset ? "reset" : "FIN") in packet #\(packet) at \(time.timeOfDay)"
    }

    enum CodingKeys: String, CodingKey { case frame, packet, time, ending }

    /// The time as `decaf dissect --json` writes a capture time.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(frame, forKey: .frame)
        try container.encode(packet, forKey: .packet)
        try container.encode(time.description, forKey: .time)
        try container.encodeIfPresent(ending?.rawValue, forKey: .ending)
    }
}
