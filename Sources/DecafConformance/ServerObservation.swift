import DecafWire

/// What one run of a server case saw on its connection, as its judge keeps it: how many frames
/// the target sent and the ones a check reads (ACKs of what the case sent, ERROR reports,
/// VERSION_RESPONSEs, READ_RECEIPTs of what the case sent), the ACKs by sequence and when the
/// first came, what the case sent by sequence and when, and how the connection ended. A target that
/// sends without end costs a bounded amount: every other frame is counted and dropped. Only the
/// judge writes it; reading it is pure.
struct ServerObservation {
    /// Frames received so far (a frame's index is its place in this count), and their bytes.
    private(set) var frameCount = 0
    private(set) var frameBytes = 0
    /// The ACK frames of each sequence the case sent, up to `keptPerKind` each.
    private var ackFrames: [UInt32: [Frame]] = [:]
    /// The last `keptPerKind` ERROR reports and VERSION_RESPONSEs, with their frame's index.
    private var errorReports: [(index: Int, report: ErrorReport)] = []
    private var responses: [(index: Int, frame: Frame, response: VersionResponse)] = []
    /// READ_RECEIPT frames per DATA sequence the case sent.
    private var receiptCounts: [UInt32: Int] = [:]
    /// How many frames of one kind a check reads at most.
    static let keptPerKind = 64
    private(set) var closed = false
    /// The target closed the connection before the case ended the stream.
    var closedBeforeStreamEnded = false
    /// The close came when the connection had been idle for the target's idle timeout: the close
    /// of an idle connection (EX-6), which says nothing of what was sent before.
    var closedWhenIdle: Duration?
    private(set) var protocolError: WireError?
    /// The sequence of the last frame of the case the target acknowledged: the last it answered.
    private(set) var lastAcknowledged: SequenceNumber?
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
        let index = frameCount
        frameCount += 1
        frameBytes += FrameHeader.size + Int(frame.header.bodyLength)
        var receipted: Set<UInt32> = []
        for field in frame.fields {
            switch field.interpreted {
            case let .error(report): Self.keep((index, report), in: &errorReports)
            case let .versionResponse(response): Self.keep((index, frame, response), in: &responses)
            case let .readReceipt(receipt) where frame.header.messageType == .readReceipt && sends[receipt.sequence.rawValue] != nil:
                receipted.insert(receipt.sequence.rawValue)
            default: break
            }
        }
        for sequence in receipted { receiptCounts[sequence, default: 0] += 1 }
        guard frame.header.messageType == .ack else { return }
        let sequence = frame.header.sequence.rawValue
        guard sends[sequence] != nil else {
            if strayAck == nil { strayAck = frame }
            return
        }
        acks[sequence, default: 0] += 1
        lastAcknowledged = frame.header.sequence
        if ackTimes[sequence] == nil { ackTimes[sequence] = now }
        if ackFrames[sequence, default: []].count < Self.keptPerKind { ackFrames[sequence, default: []].append(frame) }
    }

    /// Appends `item`, dropping the oldest beyond `keptPerKind`: a check asks for the first since
    /// a recent mark, and settles as soon as one comes.
    private static func keep<Item>(_ item: Item, in items: inout [Item]) {
        if items.count == keptPerKind { items.removeFirst() }
        items.append(item)
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
        errorReports.first { $0.index >= mark }?.report
    }

    /// The first VERSION_RESPONSE received at or after index `mark`, with its frame.
    func response(since mark: Int) -> (Frame, VersionResponse)? {
        responses.first { $0.index >= mark }.map { ($0.frame, $0.response) }
    }

    /// READ_RECEIPT frames received for the DATA frame `sequence`, when the case sent it.
    func receipts(for sequence: SequenceNumber) -> Int {
        receiptCounts[sequence.rawValue, default: 0]
    }

    /// The ACK frames received of `sequence`, when the case sent it (up to `keptPerKind`).
    func ackFrames(of sequence: SequenceNumber) -> [Frame] {
        ackFrames[sequence.rawValue] ?? []
    }

    static func carriesError(_ frame: Frame) -> Bool {
        frame.fields.contains { if case .error = $0.interpreted { true } else { false } }
    }
}
