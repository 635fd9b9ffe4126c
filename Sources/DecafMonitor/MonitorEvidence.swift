import DecafCapture

/// A frame a verdict rests on: its number in the capture, the packet that completed it, and when.
public struct MonitorEvidence: Sendable, Hashable, Encodable, CustomStringConvertible {
    public var frame: Int
    public var packet: Int
    public var time: CaptureTime

    public init(frame: Int, packet: Int, time: CaptureTime) {
        self.frame = frame
        self.packet = packet
        self.time = time
    }

    public var description: String { "frame #\(frame) at \(time.timeOfDay)" }

    enum CodingKeys: String, CodingKey { case frame, packet, time }

    /// The time as `decaf dissect --json` writes a capture time.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(frame, forKey: .frame)
        try container.encode(packet, forKey: .packet)
        try container.encode(time.description, forKey: .time)
    }
}
