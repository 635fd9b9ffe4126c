import DecafCapture
import DecafDissect
import DecafWire

/// The monitor of a whole capture: a sink for the capture dissector that plays each connection's
/// frames through its `ConnectionMonitor` and keeps what they found once the connection ends.
/// Memory is bounded by the connections open at once (each `ConnectionMonitor` bounded in turn),
/// not by the capture: the first `listLimit` failures and connections are listed, the rest
/// counted.
public struct CaptureMonitor: CaptureSink {
    /// How the capture is read: the brief's limits, and AES256 bodies kept opaque (a receiver may
    /// take them), so every frame a receiver may take is shown as a frame.
    public static let decodeOptions = DecodeOptions(version: ProtocolVersion(major: 1, minor: .max), acceptsEncryptedBodies: true)
    /// The most a receiver may allow, for telling a frame no receiver takes from one some do:
    /// TLVs nested as deep as the brief lets a limit be, tags repeated, and bodies inflated up to
    /// `widestBody`. A receiver may allow more; the monitor does not inflate more (a bomb costs it
    /// at most that, once), so a body over it is taken as one some receivers may take.
    static let widestBody = 4 * DecodeOptions.defaultBodyLimit
    static func widestReceiver(body: Int = widestBody) -> DecodeOptions {
        DecodeOptions(bodyLimit: body, version: ProtocolVersion(major: 1, minor: .max),
                      tlv: TLVOptions(depthLimit: TLVOptions.maximumDepthLimit, allowsDuplicateTags: true), acceptsEncryptedBodies: true)
    }
    /// Failures and connections listed; past it they are counted.
    public static let listLimit = 10_000

    /// A connection followed while it is open: its rules, and what is measured of it once it
    /// carried a frame (of a proxy's capture, only its client legs are measured).
    private struct OpenConnection: Sendable {
        var monitor: ConnectionMonitor
        var measured: ConnectionMetrics?

        /// Returns the connection's session when this frame, measured, first showed it.
        mutating func take(_ frame: MonitoredFrame, from direction: TCPDirection, measuring: Bool, timing metrics: inout FieldMetrics) -> SessionID? {
            monitor.handle(.frame(direction, frame))
            guard measuring else { return nil }
            if measured == nil { measured = ConnectionMetrics() }
            return measured?.take(frame, from: direction, timing: &metrics)
        }
    }
    /// Each connection followed, by index: one lookup a frame.
    private var open: [Int: OpenConnection] = [:]
    /// What a session's connections together show, and its failures, kept with the connection
    /// they were found on until it ends.
    private var sessions = SessionMonitor()
    private var sessionFailures: [Int: [MonitorVerdict]] = [:]
    /// The picture of the sessions' connections (of a proxy's capture, its client legs').
    public private(set) var timeline = SessionTimeline()
    /// The field metrics of every ended connection, and the durations of every open one (of a
    /// proxy's capture, its client legs').
    public private(set) var metrics = FieldMetrics()
    /// What every ended connection broke, in the order found (the first `listLimit`).
    public private(set) var failures: [MonitorVerdict] = []
    /// Failures past `listLimit`, counted.
    public private(set) var failuresNotListed = 0
    /// What every ended connection met, and what could not be judged.
    public private(set) var tally = MonitorTally()
    /// The connections taken as the protocol's (the first `listLimit`).
    public private(set) var connections: [TCPConnection] = []
    public private(set) var connectionCount = 0
    public private(set) var frames = 0
    /// The capture file is damaged or cut short here.
    public private(set) var captureError: CaptureError?

    /// For a capture a `decaf proxy` recorded, whether a connection is one of its client legs
    /// (to the proxy): those have only their client judged, its upstream legs (every other
    /// connection) only their server, for what the proxy does to frames is the network's.
    public let isProxyClientLeg: (@Sendable (TCPConnection) -> Bool)?

    /// A monitor of a capture of two ends talking directly.
    public init() {
        isProxyClientLeg = nil
    }

    /// A monitor of a capture a proxy recorded, listening at `proxy`.
    public init(proxy: TCPEndpoint) {
        isProxyClientLeg = { $0.server == proxy }
    }

    /// A monitor of a capture a proxy recorded, whose client legs `isClientLeg` tells.
    public init(proxyClientLegs isClientLeg: @escaping @Sendable (TCPConnection) -> Bool) {
        isProxyClientLeg = isClientLeg
    }

    /// Whether each end of `connection` is judged.
    func judges(_ connection: TCPConnection) -> PerEnd<Bool> {
        guard let isProxyClientLeg else { return PerEnd(both: true) }
        let isClientLeg = isProxyClientLeg(connection)
        return PerEnd(client: isClientLeg, server: !isClientLeg)
    }

    /// The ends judged on `connection`.
    func judged(on connection: TCPConnection) -> Set<MonitorEnd> {
        Self.ends(judges(connection))
    }

    private static func ends(_ judges: PerEnd<Bool>) -> Set<MonitorEnd> {
        Set(MonitorEnd.allCases.filter { judges[$0] })
    }

    public mutating func frame(_ view: CapturedFrameView) {
        frames += 1
        let monitored = Self.monitored(view)
        let judges = judges(view.connection)
        let index = view.connection.index
        // Through a proxy, the client's legs are measured (what the client lived through), and
        // their client's pace of reconnecting is judged.
        let shown = open[index, default: OpenConnection(monitor: ConnectionMonitor(connection: index, judging: Self.ends(judges)))].take(
            monitored, from: view.direction, measuring: judges.client, timing: &metrics)
        if let shown { keep(sessions.connected(view.connection, session: shown, in: monitored), .reconnect1, judges: judges) }
        let sender = MonitorEnd(sending: view.direction)
        if monitored.messageType == .data || (monitored.messageType == .readReceipt && judges[sender]) {
            keep(sessions.take(monitored, from: sender, on: view.connection), .replay1, judges: judges)
        }
    }

    /// Keeps what the session monitor said of the ends judged.
    private mutating func keep(_ outcome: SessionMonitor.Outcome, _ requirement: RequirementID, judges: PerEnd<Bool>) {
        switch outcome {
        case .nothing: break
        case let .failed(verdict): if judges[verdict.end] { keepSessionFailure(verdict) }
        case let .notJudged(end, reason): if judges[end] { tally.notJudged(end, requirement, because: reason) }
        case let .passed(end, requirement): if judges[end] { tally.pass(end, requirement) }
        }
    }

    public mutating func note(_ event: CaptureEvent) {
        switch event {
        case let .connectionOpened(connection):
            connectionCount += 1
            if connections.count < Self.listLimit { connections.append(connection) }
            open[connection.index] = OpenConnection(monitor: ConnectionMonitor(connection: connection.index, judging: judged(on: connection)))
        case let .joinedMidStream(connection, direction):
            open[connection.index]?.monitor.handle(.joinedMidStream(direction))
        case let .gap(connection, direction, _, _, _, _):
            open[connection.index]?.monitor.handle(.gap(direction))
        case let .ended(connection, direction, ending, packet, time):
            open[connection.index]?.monitor.handle(.ended(direction, MonitorEvidence(packet: packet, time: time, ending: ending)))
        case let .connectionClosed(connection):
            sessions.closed(connection.index)
            guard let ended = open.removeValue(forKey: connection.index) else { return }
            let measured = ended.measured
            let reconnect = measured.flatMap { metrics.add($0, index: connection.index) }
            var monitor = ended.monitor
            monitor.handle(.closed)
            let found = keep(monitor)
            if let measured, let session = measured.session, let first = measured.firstTime, let last = measured.lastTime {
                timeline.add(session: session.rawValue, SessionTimeline.Connection(
                    index: connection.index, first: first, last: last, endedBy: monitor.endedFirst,
                    failures: found.map { verdict in (verdict.evidence.first?.time ?? last, "\(verdict.end) \(verdict.requirement.rawValue): \(verdict.message)") },
                    reconnect: reconnect))
            }
        case let .captureError(error):
            captureError = error
        case .frame, .resynchronized:
            break
        }
    }

    /// Keeps a failure the session monitor found with its connection, up to a connection's
    /// `ConnectionMonitor.verdictLimit`; past it, counted: memory does not grow with what an end sends.
    private mutating func keepSessionFailure(_ verdict: MonitorVerdict) {
        guard sessionFailures[verdict.connection, default: []].count < ConnectionMonitor.verdictLimit else {
            failuresNotListed += 1
            return
        }
        sessionFailures[verdict.connection, default: []].append(verdict)
    }

    /// Keeps what an ended connection's monitor found; returns it.
    private mutating func keep(_ monitor: ConnectionMonitor) -> [MonitorVerdict] {
        tally.add(monitor.tally)
        let verdicts = monitor.verdicts + (sessionFailures.removeValue(forKey: monitor.connection) ?? [])
        let room = max(0, Self.listLimit - failures.count)
        failures += verdicts.prefix(room)
        failuresNotListed += max(0, verdicts.count - room) + monitor.verdictsNotListed
        return verdicts
    }

    /// What the rules need of a frame seen in place.
    static func monitored(_ view: CapturedFrameView) -> MonitoredFrame {
        let parts = view.parts
        var frame = MonitoredFrame(number: parts.index, packet: view.completedBy, time: view.time, length: parts.bytes.count, header: parts.header,
                                   acceptance: acceptance(of: parts))
        if parts.isValid, parts.header?.messageType == .control || parts.header?.messageType == .readReceipt {
            var fields = ControlFields()
            parts.fields.walkTLVFields(&fields, naming: .brief)
            (frame.versionRequest, frame.versionResponse, frame.errorReport, frame.readReceipt) = (fields.request, fields.response, fields.error, fields.readReceipt)
        }
        return frame
    }

    /// Whether every receiver, some or none take the frame.
    static func acceptance(of parts: FrameParts, widestBody: Int = widestBody) -> MonitoredFrame.Acceptance {
        guard let error = parts.error else {
            return parts.isOpaque ? .byReceiversChoice : .byEveryReceiver
        }
        switch error.code {
        // A frame cut short by the end of what was captured, in another major (a receiver of that
        // major takes it), or over a limit a receiver may raise, is not one no receiver takes.
        case .truncatedFrame, .versionUnsupported, .timestampOutOfWindow, .bodyTooLarge:
            return .byReceiversChoice
        default:
            // The refusal every receiver comes to (a repeated tag some allow may hide a field
            // that overflows its sequence, which none allows): the rule the sender broke.
            let outcomes = LegalOutcomes(of: Array(parts.bytes), options: widestReceiver(body: widestBody))
            guard !outcomes.allowsFrame, let refusal = outcomes.refusals.first else { return .byReceiversChoice }
            switch refusal.fault {
            case .bodyTooLarge, .inflatedBodyTooLarge: return .byReceiversChoice
            default: return .byNoReceiver(refusal)
            }
        }
    }
}
