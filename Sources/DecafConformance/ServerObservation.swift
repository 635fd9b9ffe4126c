import DecafWire

/// What one run of a server case saw on its connection, as its judge keeps it: every frame the
/// target sent, the ACKs by sequence and when the first came, what the case sent by sequence and
/// when, and how the connection ended. Only the judge writes it; reading it is pure.
struct ServerObservation {
    /// Every frame received, in order.
    private(set) var frames: [Frame] = []
    private(set) var closed = false
    /// The target closed the connection before the case ended the stream.
    var closedBeforeStreamEnded = false
    private(set) var protocolError: WireError?
    /// An ACK whose sequence no frame of the case had.
    private(set) var strayAck: Frame?
    /// ACKs received per sequence, and when the first of each came.
    private(set) var acks: [UInt32: Int] = [:]
    private(set) var ackTimes: [UInt32: Duration] = [:]
    /// Frames sent per sequence, and when each sequence was last sent.
    private(set) var sends: [UInt32: Int] = [:]
    private(set) var sentAt: [UInt32: Duration] = [:]

    mutating func sent(_ sequences: [UInt32], at now: Duration) {
        for sequence in sequences {
            sends[sequence, default: 0] += 1
            sentAt[sequence] = now
        }
    }

    mutating func received(_ frame: Frame, at now: Duration) {
        frames.append(frame)
        guard frame.header.messageType == .ack else { return }
        let sequence = frame.header.sequence.rawValue
        if sends[sequence] == nil, strayAck == nil { strayAck = frame }
        acks[sequence, default: 0] += 1
        if ackTimes[sequence] == nil { ackTimes[sequence] = now }
    }

    mutating func failed(_ error: WireError) {
        if protocolError == nil { protocolError = error }
    }

    mutating func close() { closed = true }

    /// Whether nothing more can come that a wait could be waiting for: the connection closed, or
    /// the target sent what fails the case whatever it checks.
    var isOver: Bool { closed || protocolError != nil || strayAck != nil }

    func acknowledged(_ sequence: UInt32) -> Int { acks[sequence, default: 0] }

    /// The first ERROR TLV in a frame received at or after index `mark`.
    func errorReport(since mark: Int) -> ErrorReport? {
        for frame in frames[min(mark, frames.count)...] {
            for field in frame.fields { if case let .error(report) = field.interpreted { return report } }
        }
        return nil
    }

    /// The first VERSION_RESPONSE received at or after index `mark`, with its frame.
    func response(since mark: Int) -> (Frame, VersionResponse)? {
        for frame in frames[min(mark, frames.count)...] {
            for field in frame.fields { if case let .versionResponse(response) = field.interpreted { return (frame, response) } }
        }
        return nil
    }

    /// READ_RECEIPT frames received for the DATA frame `sequence`.
    func receipts(for sequence: SequenceNumber) -> Int {
        frames.filter { frame in
            frame.header.messageType == .readReceipt
                && frame.fields.contains { if case let .readReceipt(receipt) = $0.interpreted { receipt.sequence == sequence } else { false } }
        }.count
    }

    static func carriesError(_ frame: Frame) -> Bool {
        frame.fields.contains { if case .error = $0.interpreted { true } else { false } }
    }
}
