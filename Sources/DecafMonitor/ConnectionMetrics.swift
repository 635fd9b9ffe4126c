import DecafCapture
import DecafDissect
import DecafWire

/// What a mobile team measures of one connection, from its frames and the capture's clock: the
/// handshake's time, each end's ACK round trips as the capture point sees them, the messages
/// (DATA) and read receipts sent and acknowledged, heartbeat intervals, and bytes. Durations go
/// straight into the capture's distributions (`FieldMetrics`); the connection keeps its counts
/// and at most `DirectionLedger.limit` frames awaiting an ACK per direction.
struct ConnectionMetrics: Sendable {
    /// The session of its first frame.
    private(set) var session: SessionID?
    private(set) var firstTime: CaptureTime?
    private(set) var lastTime: CaptureTime?
    private(set) var bytes = 0
    /// When the first DATA was acknowledged: the first message delivered.
    private(set) var firstDelivery: CaptureTime?
    private(set) var handshake: Int64?
    /// DATA frames sent (resends included) and the first ACKs they got, both ways.
    private(set) var dataSent = 0
    private(set) var dataAcknowledged = 0

    private var request: CaptureTime?
    /// When each frame awaiting an ACK was first sent, and whether it is DATA, by direction and key.
    private var sentAt = PerDirection(both: KeyTable<(time: CaptureTime, isData: Bool, header: FrameHeader)>())
    private var lastHeartbeat = PerEnd<CaptureTime?>(both: nil)
    /// The timestamp of the latest DATA with each sequence, by direction: the message a READ_RECEIPT
    /// in the other direction reports (the latest `DirectionLedger.limit`).
    private var messageTimestamps = PerDirection(both: KeyTable<UInt32>())

    /// Measures `frame`; returns the connection's session when this frame first showed it.
    @discardableResult
    mutating func take(_ frame: MonitoredFrame, from direction: TCPDirection, timing metrics: inout FieldMetrics) -> SessionID? {
        if firstTime == nil { firstTime = frame.time }
        lastTime = frame.time
        bytes += frame.length
        guard let header = frame.header, case .byEveryReceiver = frame.acceptance else { return nil }
        var shown: SessionID?
        if session == nil {
            session = header.sessionID
            shown = header.sessionID
        }
        measure(frame, header, from: direction, timing: &metrics)
        return shown
    }

    private mutating func measure(_ frame: MonitoredFrame, _ header: FrameHeader, from direction: TCPDirection, timing metrics: inout FieldMetrics) {
        let sender = MonitorEnd(sending: direction)
        let key = DirectionLedger.key(header)
        switch header.messageType {
        case .control:
            if frame.versionRequest != nil, sender == .client { request = frame.time }
            if frame.versionResponse != nil, sender == .server, let request, handshake == nil {
                let time = frame.time.nanoseconds(since: request)
                handshake = time
                metrics.handshakes.record(time)
            }
            awaitAck(key, header, at: frame.time, isData: false, direction: direction)
        case .data:
            metrics.sent(message: header)
            dataSent += 1
            if messageTimestamps[direction].count >= DirectionLedger.limit { messageTimestamps[direction].removeAll() }
            messageTimestamps[direction][key] = header.timestamp
            awaitAck(key, header, at: frame.time, isData: true, direction: direction)
        case .readReceipt:
            let reported = frame.readReceipt.flatMap { receipt -> FrameHeader? in
                var message = header
                message.sequence = receipt.sequence
                guard let timestamp = messageTimestamps[direction.reversed][DirectionLedger.key(message)] else { return nil }
                message.timestamp = timestamp
                return message
            }
            metrics.sent(readReceipt: header, for: reported)
            awaitAck(key, header, at: frame.time, isData: false, direction: direction)
        case .heartbeat:
            if let last = lastHeartbeat[sender] { metrics.heartbeatIntervals[sender].record(frame.time.nanoseconds(since: last)) }
            lastHeartbeat[sender] = frame.time
            awaitAck(key, header, at: frame.time, isData: false, direction: direction)
        case .ack:
            guard let sent = sentAt[direction.reversed].removeValue(forKey: key) else { return }
            metrics.roundTrips[sender].record(frame.time.nanoseconds(since: sent.time))
            if sent.isData {
                dataAcknowledged += 1
                metrics.delivered(message: sent.header)
                if firstDelivery == nil { firstDelivery = frame.time }
            }
        default:
            break
        }
    }


    private mutating func awaitAck(_ key: UInt64, _ header: FrameHeader, at time: CaptureTime, isData: Bool, direction: TCPDirection) {
        guard sentAt[direction][key] == nil else { return }
        guard sentAt[direction].count < DirectionLedger.limit else { return }
        sentAt[direction][key] = (time, isData, header)
    }
}
