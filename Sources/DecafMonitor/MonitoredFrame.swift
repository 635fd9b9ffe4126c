import DecafCapture
import DecafWire

/// What the monitor needs of one frame seen on the wire: where and when it was seen, its header,
/// the control fields the rules read (version offers, an ERROR report), and whether a receiver
/// must, may or must not take it. Owned and small: the rules keep a few per connection.
public struct MonitoredFrame: Sendable, Hashable {
    /// Whether receivers take the frame, over every choice the brief leaves them.
    public enum Acceptance: Sendable, Hashable {
        /// Every legal receiver takes it: it must be acknowledged as its type asks.
        case byEveryReceiver
        /// Some legal receivers take it and others refuse it (an AES256 body, a depth or body
        /// limit a receiver may set, repeated tags): nothing that follows is judged against it.
        case byReceiversChoice
        /// No legal receiver takes it, whatever its limits: it must not be acknowledged, and its
        /// receiver must close (EX-5). The error is the reference decoder's.
        case byNoReceiver(WireError)
    }

    /// The frame's number in the capture (from 1, as `decaf dissect` numbers them).
    public var number: Int
    /// The packet that completed it.
    public var packet: Int
    public var time: CaptureTime
    /// Its bytes on the wire.
    public var length: Int
    /// The header, when the frame has one.
    public var header: FrameHeader?
    public var acceptance: Acceptance
    /// A VERSION_REQUEST among its top-level fields.
    public var versionRequest: VersionRequest?
    /// A VERSION_RESPONSE among its top-level fields.
    public var versionResponse: VersionResponse?
    /// An ERROR report among its top-level fields.
    public var errorReport: ErrorReport?
    /// The message a READ_RECEIPT frame reports read.
    public var readReceipt: ReadReceipt?

    public init(number: Int, packet: Int, time: CaptureTime, length: Int = 0, header: FrameHeader?, acceptance: Acceptance,
                versionRequest: VersionRequest? = nil, versionResponse: VersionResponse? = nil, errorReport: ErrorReport? = nil) {
        self.number = number
        self.packet = packet
        self.time = time
        self.length = length
        self.header = header
        self.acceptance = acceptance
        self.versionRequest = versionRequest
        self.versionResponse = versionResponse
        self.errorReport = errorReport
    }

    /// The header's message type, when it has one.
    public var messageType: MessageType? { header?.messageType }

    /// Whether its type asks for an ACK: DATA, CONTROL and READ_RECEIPT (EX-1), HEARTBEAT (EX-2).
    public var needsAcknowledgement: Bool {
        switch messageType {
        case .data?, .control?, .readReceipt?, .heartbeat?: true
        default: false
        }
    }

    /// Where it was seen, for a person: its number and the time of day.
    public var evidence: MonitorEvidence { MonitorEvidence(frame: number, packet: packet, time: time) }
}
