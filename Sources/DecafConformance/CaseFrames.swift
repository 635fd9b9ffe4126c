import DecafWire

/// The frames cases send, built by DecafWire's encoder with the session and timestamp every case
/// uses, stamped with the run's clock when sent.
public enum CaseFrames {
    /// The session of the brief's example UUID 12345678-9abc-def0-1234-56789abcdef0.
    public static let session = SessionID(rawValue: 0x444C)
    /// The timestamp in the catalog's bytes (2023-11-14T22:13:20Z); a run replaces it with its clock.
    public static let timestamp: UInt32 = 1_700_000_000
    /// The counters of sentinel frames start here, far from the counters cases use.
    static let sentinelCounter: UInt32 = 0xC0_FFEE

    static func header(
        _ type: MessageType, _ counter: UInt32, category: SequenceCategory? = nil, session: SessionID = session,
        encrypt: EncryptType = .none, compress: CompressType = .none
    ) -> FrameHeader {
        FrameHeader(
            messageType: type, sequence: SequenceNumber(category: category ?? .usual(for: type), counter: counter),
            timestamp: timestamp, sessionID: session, encryptType: encrypt, compressType: compress
        )
    }

    static func bytes(_ header: FrameHeader, _ fields: [TLVField]) -> [UInt8] {
        var encoder = FrameEncoder()
        return encoder.encode(header, fields: fields)
    }

    /// A step sending one frame, its timestamp taken from the run's clock plus `skew` seconds.
    static func send(
        _ header: FrameHeader, _ fields: [TLVField] = [], split: [Int] = [], pause: Duration = .zero, skew: Int64 = 0,
        label: String? = nil
    ) -> ConformanceStep {
        .send(transmission(header, fields, split: split, pause: pause, skew: skew, label: label))
    }

    /// One frame, its timestamp taken from the run's clock plus `skew` seconds.
    static func transmission(
        _ header: FrameHeader, _ fields: [TLVField] = [], split: [Int] = [], pause: Duration = .zero, skew: Int64 = 0,
        label: String? = nil
    ) -> Transmission {
        Transmission(
            label: label ?? describe(header, fields), bytes: bytes(header, fields), split: split, pause: pause,
            stamps: [Transmission.Stamp(headerOffset: 0, skew: skew)]
        )
    }

    /// A step sending several frames in one write.
    static func sendTogether(_ frames: [(FrameHeader, [TLVField])], split: [Int] = [], pause: Duration = .zero) -> ConformanceStep {
        .send(together(frames, split: split, pause: pause))
    }

    /// Several frames in one write, each stamped with the run's clock.
    static func together(_ frames: [(FrameHeader, [TLVField])], split: [Int] = [], pause: Duration = .zero) -> Transmission {
        var bytes: [UInt8] = []
        var stamps: [Transmission.Stamp] = []
        for (header, fields) in frames {
            stamps.append(Transmission.Stamp(headerOffset: bytes.count))
            bytes += self.bytes(header, fields)
        }
        let label = frames.map { describe($0.0, $0.1) }.joined(separator: " + ")
        return Transmission(label: label, bytes: bytes, split: split, pause: pause, stamps: stamps)
    }

    /// `DATA seq NORMAL/1 [TEXT]`.
    static func describe(_ header: FrameHeader, _ fields: [TLVField]) -> String {
        let tags = fields.isEmpty ? "" : " [" + fields.map { "\($0.tag)" }.joined(separator: ", ") + "]"
        return "\(header.messageType) seq \(header.sequence)\(tags)"
    }

    static func data(_ counter: UInt32, _ text: String = "hello") -> (FrameHeader, [TLVField]) {
        (header(.data, counter), [TLVField(tag: .text, text: text)])
    }

    static func versionRequest(_ version: ProtocolVersion, _ features: FeatureFlags, counter: UInt32 = 1, session: SessionID = session) -> (FrameHeader, [TLVField]) {
        (header(.control, counter, session: session), [VersionRequest(version: version, features: features).field])
    }

    /// Sends a VERSION_REQUEST and expects the answer HS-2 gives.
    static func handshake(
        _ version: ProtocolVersion = .v1_0, _ features: FeatureFlags = .known, counter: UInt32 = 1,
        session: SessionID = session, split: [Int] = []
    ) -> [ConformanceStep] {
        let (header, fields) = versionRequest(version, features, counter: counter, session: session)
        return [
            send(header, fields, split: split, pause: split.isEmpty ? .zero : .milliseconds(2)),
            .expect(.versionResponse(to: VersionRequest(version: version, features: features), sequence: header.sequence, session: session)),
        ]
    }

    /// Sends a frame and expects exactly one ACK of it.
    static func acked(_ header: FrameHeader, _ fields: [TLVField] = [], split: [Int] = [], pause: Duration = .zero, skew: Int64 = 0) -> [ConformanceStep] {
        [send(header, fields, split: split, pause: pause, skew: skew), .expect(.ack(header.sequence, session: header.sessionID))]
    }

    /// `count` writes of one byte each.
    static func bytewise(_ count: Int) -> [Int] { Array(repeating: 1, count: count) }
}
