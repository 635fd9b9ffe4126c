import DecafJSON
import DecafWire
import Foundation

/// A case for a client under test: the server the suite plays, what the client's application is
/// told to send, and what is judged. Data, like every case, with a stable ID that is never reused.
public struct ClientCase: Hashable, Sendable {
    /// A message the testee is told to send on its standard input.
    public struct Message: Hashable, Sendable {
        public var id: String
        /// The TLV bytes of the body; `text` says how they are given to the testee.
        public var payload: [UInt8]
        /// Given as `text` (a TEXT field) rather than as `payload` hex.
        public var text: String?

        /// A message whose body is one TEXT field.
        public init(_ id: String, text: String) {
            self.id = id
            self.text = text
            payload = TLVEncoder.encode([TLVField(tag: .text, text: text)])
        }

        /// A message whose body is exactly `payload`.
        public init(_ id: String, payload: [UInt8]) {
            self.id = id
            self.payload = payload
        }

        /// The message on a line of a testee's standard input; nil for a line that is not one.
        public init?(line: some StringProtocol) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let send = object["send"] as? [String: Any], let id = send["id"] as? String else { return nil }
            if let text = send["text"] as? String {
                self.init(id, text: text)
            } else if let hex = send["payload"] as? String, let payload = Hex.bytes(hex) {
                self.init(id, payload: payload)
            } else {
                return nil
            }
        }

        /// The line on the testee's standard input: `{"send":{"id":"m1","text":"hello"}}`.
        package var line: String {
            JSONLine.encode(["send": SendLine(id: id, text: text, payload: text == nil ? Hex.string(payload) : nil)])
        }

        private struct SendLine: Encodable {
            var id: String
            var text: String?
            var payload: String?
        }
    }

    public var id: String
    public var requirements: [RequirementID]
    public var level: ConformanceLevel
    public var summary: String
    public var script: ServerScript
    public var messages: [Message]
    /// Whether the input ends right after the messages, so the testee exits once they are
    /// settled; otherwise it ends when the script finishes.
    public var endsInput: Bool
    /// Whether the environment suggests a heartbeat interval.
    public var heartbeats: Bool
    /// Testee processes started at once, all against the same server.
    public var instances: Int
    /// The settings suggested in the environment.
    public var suggested: ClientSettings
    /// Features the client must offer for the case to mean anything; a client that does not
    /// offer them gets `unsupported`.
    public var needs: FeatureFlags
    public var check: ClientCheck
    /// The DATA frame whose ACK shows the client went on after the case's frames, when the
    /// script sends one.
    public var sentinel = ClientCaseSteps.sentinel
    /// The body of every sentinel: what the client reports delivered for it.
    public static let sentinelPayload = ClientCaseSteps.payload(ClientCaseSteps.sentinelText)
    /// The longest the case may take whatever its check needs (a fuzzed input's timeout); nil for
    /// what the check needs.
    public var limit: Duration?

    /// The longest line a testee may print in this case: a `delivered` event of the largest
    /// payload the script sends (a compressed body counted at twice the body limit, so a client
    /// that inflates past it is still heard), in hex, and
    /// 64 KiB for the rest. A longer line is not an event of this case; the bound keeps what a
    /// testee that never ends its line costs to what the case needs.
    public var longestLine: Int {
        let payloads = script.connections.flatMap(\.steps).flatMap { step -> [Int] in
            guard case let .send(transmission) = step else { return [] }
            return Transmission.headers(in: transmission.bytes).map { header in
                header.compressType == .zlib ? 2 * DecodeOptions.defaultBodyLimit : Int(header.bodyLength)
            }
        }
        return 64 << 10 + 2 * (payloads.max() ?? 0)
    }

    public init(
        _ id: String, _ requirements: [RequirementID], _ level: ConformanceLevel, _ summary: String,
        script: ServerScript = ServerScript(), messages: [Message] = [], endsInput: Bool = false, heartbeats: Bool = false,
        instances: Int = 1, suggested: ClientSettings = .suggested, needs: FeatureFlags = [], check: ClientCheck
    ) {
        self.id = id
        self.requirements = requirements
        self.level = level
        self.summary = summary
        self.script = script
        self.messages = messages
        self.endsInput = endsInput
        self.heartbeats = heartbeats
        self.instances = instances
        self.suggested = suggested
        self.needs = needs
        self.check = check
    }

    /// The case as a conformance case, for selection and reports.
    public var conformanceCase: ConformanceCase {
        ConformanceCase(id, requirements, level, summary, needs: needs, steps: [])
    }

    /// The longest the case may take with a client using `settings`: enough for every wait the
    /// check needs, with the lateness a loaded machine adds.
    public func timeLimit(for settings: ClientSettings) -> Duration {
        // A second more for each MiB the server sends: a client takes it in, and reports what it
        // delivered as hex, at its own pace.
        let sent = script.connections.flatMap(\.steps).reduce(0) { total, step in
            if case let .send(transmission) = step { total + transmission.bytes.count } else { total }
        }
        let base = Duration.seconds(8 + sent >> 20)
        if let limit { return limit + .seconds(sent >> 20) }
        let timeout = settings.ackTimeout
        switch check {
        case .givesUp, .resend, .lateAckHarmless, .onlyUnacknowledgedResent, .noResendAfterAck, .retriesUnansweredHandshake:
            return base + timeout * (settings.retries + 3)
        case .backoffGrows, .backoffCapped, .jitter:
            return base + settings.reconnectMax * 8 + settings.reconnectBase * 4
        case .reconnects, .messageSettled, .resendsOnNewConnection, .handshakesAgain:
            // One reconnect, which must come within the client's longest wait after it could: no
            // longer (a client that waits 30 s between attempts is judged in 40 s, not in 250).
            let refusals = script.connections.flatMap(\.steps).reduce(script.refusedAtStart ?? .zero) { total, step in
                if case let .refuseConnections(duration) = step { total + duration } else { total }
            }
            return base + refusals + TimingTolerance.bounds(settings.reconnectMax).upperBound + settings.reconnectBase
        case .heartbeats, .heartbeatSequences, .deadServerNoticed:
            return base + (settings.heartbeat ?? .seconds(1)) * 12
        case .stopsAfterOtherMajor:
            return .seconds(4) + settings.reconnectMax
        default:
            return base
        }
    }
}
