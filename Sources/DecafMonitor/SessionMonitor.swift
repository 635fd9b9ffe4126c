import DecafCapture
import DecafWire

/// Judges what only a session's connections together show: a message reported read again on a
/// later connection (REPLAY-1: a repeat after a reconnect is acknowledged again, never delivered
/// twice, for the memory spans the session's connections, Specs/decaf-wire-v1.md interpretation
/// 15; within one connection `ConnectionMonitor` judges it), and a client that connects again
/// more than 10 times a second (RECONNECT-1). How its waits grow, and their jitter, are not
/// judged: refused attempts carry no session a capture can read, the longest wait is the
/// client's own, and one client's jittered waits cannot be told from another backoff. A session is its session_id between
/// one client address and one server endpoint: a 16-bit id is shared by chance between clients,
/// and a client that comes back from another address (a handover) is not followed, never
/// mistaken for another. A message is its sender's DATA
/// frames with one session and sequence, told apart by timestamp (a resend keeps it); a read
/// receipt sent again keeps its own sequence and timestamp and counts once. Bounded: at most
/// `limit` messages are followed; past it all are forgotten, and receipts for messages forgotten
/// or never seen are not judged.
public struct SessionMonitor: Sendable {
    /// What became of a read receipt.
    public enum Outcome: Sendable {
        /// Nothing to say across connections (the first receipt, one for another message, or one
        /// on the connection of the receipt before it, which `ConnectionMonitor` judges).
        case nothing
        case failed(MonitorVerdict)
        case notJudged(MonitorEnd, because: String)
        /// A reconnect within the pace RECONNECT-1 allows.
        case passed(MonitorEnd, RequirementID)
    }

    /// A session's latest connections (at most `attemptsPerSecond` + 1), where each first showed
    /// the session, and whether the session was already said to reconnect too often.
    private struct Attempts {
        var first: [MonitorEvidence] = []
        var said = false
    }
    /// RECONNECT-1's pace: at most this many attempts in a second.
    public static let attemptsPerSecond = 10

    /// A message: who sent it, in which session (between which client address and server: a
    /// scope, numbered as first seen), under which sequence. Two words, so following a message
    /// hashes little.
    private struct Message: Hashable {
        var scopeSessionAndSender: UInt64
        var sequence: UInt32

        init(scope: UInt32, session: UInt16, sender: MonitorEnd, sequence: UInt32) {
            scopeSessionAndSender = UInt64(scope) << 17 | UInt64(session) << 1 | (sender == .client ? 0 : 1)
            self.sequence = sequence
        }
    }

    /// A client address and a server endpoint: where a session's connections run.
    private struct Scope: Hashable {
        var client: IPAddress
        var server: TCPEndpoint
    }

    /// The timestamps a message was sent with: one, as a rule (a resend keeps it), kept inline, so
    /// following a message costs no allocation.
    private struct Timestamps {
        var first: UInt32
        var others: Set<UInt32> = []

        var count: Int { 1 + others.count }

        mutating func insert(_ timestamp: UInt32) {
            if timestamp != first { others.insert(timestamp) }
        }
    }

    /// The receipts reporting a message read: the first (its connection and where it was seen),
    /// how many, and the connection of the latest.
    private struct Receipts {
        var firstConnection: Int
        var first: MonitorEvidence
        var count = 1
        var latestConnection: Int
    }

    /// How long a receiver remembers what it delivered, unless it says otherwise (REPLAY-1's
    /// window, as TS-1's): a second receipt later than this after the first is not judged.
    public static let window: Int64 = 60_000_000_000
    static let limit = 65_536

    private var timestamps: [Message: Timestamps] = [:]
    private var scopes: [Scope: UInt32] = [:]
    /// Each open connection's scope, so a frame costs a lookup by index.
    private var connectionScopes: [Int: UInt32] = [:]
    private var receipts: [Message: Receipts] = [:]
    private var receiptFrames: Set<FieldMetrics.Identity> = []
    /// Each session's latest connections, by scope and session_id.
    private var attempts: [UInt64: Attempts] = [:]

    public init() {}

    /// `connection` ended: its scope need not be looked up by its index any more.
    public mutating func closed(_ connection: Int) {
        connectionScopes[connection] = nil
    }

    /// Forgets everything once one of its tables is full: memory stays bounded, and what was
    /// forgotten is not judged.
    private mutating func forgetWhenFull() {
        guard timestamps.count >= Self.limit || receipts.count >= Self.limit || receiptFrames.count >= Self.limit || scopes.count >= Self.limit
            || attempts.count >= Self.limit else { return }
        timestamps.removeAll()
        receipts.removeAll()
        receiptFrames.removeAll()
        scopes.removeAll()
        connectionScopes.removeAll()
        attempts.removeAll()
    }

    /// RECONNECT-1: `connection` first showed its session in `frame` (a connection is counted
    /// once its first frame says whose it is). A client that made more than `attemptsPerSecond`
    /// connections of one session within a second fails, once a session; each later connection
    /// within the pace passes.
    public mutating func connected(_ connection: TCPConnection, session: SessionID, in frame: MonitoredFrame) -> Outcome {
        forgetWhenFull()
        let key = UInt64(scope(of: connection)) << 16 | UInt64(session.rawValue)
        var recent = attempts[key, default: Attempts()]
        recent.first.append(frame.evidence)
        if recent.first.count > Self.attemptsPerSecond + 1 { recent.first.removeFirst() }
        defer { attempts[key] = recent }
        guard recent.first.count > 1 else { return .nothing }
        guard recent.first.count > Self.attemptsPerSecond, let earliest = recent.first.first,
              frame.time.nanoseconds(since: earliest.time) < 1_000_000_000 else { return .passed(.client, .reconnect1) }
        guard !recent.said else { return .nothing }
        recent.said = true
        return .failed(MonitorVerdict(connection: connection.index, end: .client, requirement: .reconnect1, level: .recommended, cause: "reconnects-too-often",
                                      message: "connected \(recent.first.count) times within a second in session \(Hex.format(session.rawValue, width: 4)), the first showing it at \(earliest), the last on connection #\(connection.index) at \(frame.evidence): a client waits longer after each failed attempt, at most \(Self.attemptsPerSecond) attempts a second",
                                      evidence: [frame.evidence, earliest]))
    }

    private mutating func scope(of connection: TCPConnection) -> UInt32 {
        if let known = connectionScopes[connection.index] { return known }
        let key = Scope(client: connection.client.address, server: connection.server)
        let scope = scopes[key] ?? UInt32(scopes.count)
        scopes[key] = scope
        connectionScopes[connection.index] = scope
        return scope
    }

    /// Takes a frame `sender` sent on `connection`; for a read receipt, says what it shows.
    public mutating func take(_ frame: MonitoredFrame, from sender: MonitorEnd, on connection: TCPConnection) -> Outcome {
        guard let header = frame.header, case .byEveryReceiver = frame.acceptance else { return .nothing }
        forgetWhenFull()
        let scope = scope(of: connection)
        if header.messageType == .data {
            timestamps[Message(scope: scope, session: header.sessionID.rawValue, sender: sender, sequence: header.sequence.rawValue),
                       default: Timestamps(first: header.timestamp)].insert(header.timestamp)
            return .nothing
        }
        guard header.messageType == .readReceipt, let receipt = frame.readReceipt,
              receiptFrames.insert(FieldMetrics.Identity(header)).inserted else { return .nothing }
        let message = Message(scope: scope, session: header.sessionID.rawValue, sender: sender.peer, sequence: receipt.sequence.rawValue)
        guard let sent = timestamps[message]?.count else { return .nothing }
        guard let earlier = receipts[message] else {
            receipts[message] = Receipts(firstConnection: connection.index, first: frame.evidence, latestConnection: connection.index)
            return .nothing
        }
        receipts[message]?.count += 1
        receipts[message]?.latestConnection = connection.index
        guard earlier.count >= sent, earlier.latestConnection != connection.index else { return .nothing }
        guard frame.time.nanoseconds(since: earlier.first.time) <= Self.window else {
            return .notJudged(sender, because: "a second receipt for a message more than the 60 s replay window after the first")
        }
        return .failed(MonitorVerdict(connection: connection.index, end: sender, requirement: .replay1, cause: "delivered-again-after-reconnect",
                                      message: "reported message \(receipt.sequence) of session \(Hex.format(header.sessionID.rawValue, width: 4)) read again on connection #\(connection.index) (\(frame.evidence)), though it was reported read on connection #\(earlier.firstConnection) (\(earlier.first)) and sent \(sent == 1 ? "once" : "as \(sent) messages") (a resend keeps its timestamp): a repeat after a reconnect is acknowledged again, never delivered twice",
                                      evidence: [frame.evidence, earlier.first]))
    }
}
