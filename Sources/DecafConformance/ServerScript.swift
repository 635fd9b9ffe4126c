import DecafWire

/// What the suite's scripted server does in a client case: a correct peer (the reference peer's
/// own `PeerSession` answers the handshake, acknowledges, sends read receipts and recognises
/// repeats), bent by the script where the case needs a misbehaving or unlucky server. Data, so the
/// catalog's checksum covers it.
public struct ServerScript: Hashable, Sendable {
    /// The server's own version: its major and highest minor (HS-2).
    public var version: ProtocolVersion = .v1_0
    /// The features the server supports; the handshake agrees on those the client offers too.
    public var features: FeatureFlags = .basic
    /// Connection n (from 0) follows `connections[n]`, or the last one when there are fewer.
    public var connections: [ConnectionScript]
    /// The listener refuses connections for this long when the case starts.
    public var refusedAtStart: Duration?
    /// The counter the server's CONTROL sequences start after: its first VERSION_RESPONSE carries
    /// CONTROL/`controlCounter + 1`. A case whose own frames use the low counters moves it away.
    public var controlCounter: UInt32

    public init(version: ProtocolVersion = .v1_0, features: FeatureFlags = .basic, refusedAtStart: Duration? = nil, controlCounter: UInt32 = 0,
                connections: [ConnectionScript] = [ConnectionScript()]) {
        self.version = version
        self.features = features
        self.refusedAtStart = refusedAtStart
        self.controlCounter = controlCounter
        self.connections = connections
    }

    /// The script of connection `index` (from 0).
    public func connection(_ index: Int) -> ConnectionScript {
        connections.isEmpty ? ConnectionScript() : connections[min(index, connections.count - 1)]
    }
}

/// What the server does on one connection: how it answers the handshake, which ACKs it sends, and
/// the steps it takes once the handshake is answered.
public struct ConnectionScript: Hashable, Sendable {
    public var handshake: HandshakeAnswer = .ackFirst
    public var acks: AckPolicy = .always
    /// Run in order once the handshake is answered (at once when the script does not answer it).
    public var steps: [ServerStep] = []

    public init(handshake: HandshakeAnswer = .ackFirst, acks: AckPolicy = .always, steps: [ServerStep] = []) {
        self.handshake = handshake
        self.acks = acks
        self.steps = steps
    }

    /// What the script sends, in order: the case's frames, then any that follow them.
    public var transmissions: [Transmission] {
        steps.compactMap { if case let .send(transmission) = $0 { transmission } else { nil } }
    }

    /// The label of the script's first send: the input of a client case, whose write shows it arrived.
    public var firstSentLabel: String { transmissions.first?.label ?? "" }

    /// The label of the last send before the script's first `step`: in a refusal case, the frame
    /// to refuse, sent before the script waits for the close.
    public func lastSentLabel(before step: ServerStep) -> String {
        ConnectionScript(steps: Array(steps.prefix { $0 != step })).transmissions.last?.label ?? ""
    }
}

/// How the server answers a VERSION_REQUEST (HS-2): the ACK and the VERSION_RESPONSE come in either
/// order, and the client must take both.
public enum HandshakeAnswer: Hashable, Sendable {
    /// The ACK, then the response, each in a write of its own.
    case ackFirst
    /// The response, then the ACK after `pause`.
    case responseFirst(pause: Duration)
    /// The ACK, then the response after `pause`: a slow server, to which a client may send
    /// before the handshake completes (VER-3).
    case late(Duration)
    /// Both in one write, the response first.
    case together
    /// Every byte of the ACK and the response in a write of its own (FRAME-3).
    case bytewise
    /// No answer at all, as a server that is not there yet.
    case unanswered
}

/// Which of the client's frames the server acknowledges, and how.
public struct AckPolicy: Hashable, Sendable {
    /// Sends of each DATA frame left unacknowledged before one is acknowledged; `Int.max` never
    /// acknowledges DATA.
    public var withheldSends = 0
    /// Withhold only for the n-th distinct DATA frame of the connection (from 1); nil for all.
    public var onlyMessage: Int?
    /// ACKs sent again for each acknowledged DATA frame, a moment later (an ACK that arrives late).
    public var duplicates = 0
    /// The delay before each ACK of a DATA frame, as a fraction of the client's ACK timeout.
    public var delayInAckTimeouts: Double = 0
    /// Whether HEARTBEAT frames are acknowledged (EX-2).
    public var heartbeats = true

    public static let always = AckPolicy()
    /// No ACK for DATA: the client must resend and give up (EX-7).
    public static let neverData = AckPolicy(withheldSends: .max)
    /// Nothing acknowledged at all, heartbeats included: a dead server.
    public static let silent = AckPolicy(withheldSends: .max, heartbeats: false)

    public init(withheldSends: Int = 0, onlyMessage: Int? = nil, duplicates: Int = 0, delayInAckTimeouts: Double = 0, heartbeats: Bool = true) {
        self.withheldSends = withheldSends
        self.onlyMessage = onlyMessage
        self.duplicates = duplicates
        self.delayInAckTimeouts = delayInAckTimeouts
        self.heartbeats = heartbeats
    }
}

/// One step of a connection's script. Steps that wait hold the script until what they wait for has
/// happened; nothing waits for something not to happen.
public enum ServerStep: Hashable, Sendable {
    /// Writes bytes: frames (their timestamps set to the run's clock) or anything else.
    case send(Transmission)
    /// Writes the bytes of the last `send` again exactly, timestamps included: a repeat (REPLAY-1),
    /// on a later connection when the last `send` was on an earlier one.
    case repeatLast
    case pause(Duration)
    /// Waits this many of the client's ACK timeouts.
    case pauseAckTimeouts(Double)
    /// Waits until the connection has received this many DATA frames, resends included.
    case awaitData(Int)
    /// Waits until the client acknowledges the server's frame with this sequence.
    case awaitAck(SequenceNumber)
    /// Waits until the testee reports this event (`failed`, `receipt`, ...).
    case awaitEvent(String)
    /// Waits until this many connections have been accepted since the case started.
    case awaitConnections(Int)
    /// Waits until the client closes this connection.
    case awaitClosed
    /// Waits this many of the client's heartbeat intervals (1 s when it sends none).
    case pauseHeartbeats(Double)
    /// Closes the connection.
    case close
    /// Resets the connection (RST), as a crashed server or a NAT that forgot it does.
    case reset
    /// Stops answering anything on this connection.
    case goSilent
    /// Closes the listener for this long, so connection attempts are refused.
    case refuseConnections(for: Duration)
    /// The case has seen what it needs.
    case finish
}
