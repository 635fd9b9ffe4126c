import DecafWire

/// Judges a client case on what it observed: first what spoils any case (a testee that cannot run,
/// crashed, printed garbage or needs what it lacks; bytes from the client that break the
/// protocol), then the case's own check. A pure function of the case and the observation.
public struct ClientJudge {
    public let testCase: ClientCase
    public let observation: ClientObservation

    public init(testCase: ClientCase, observation: ClientObservation) {
        self.testCase = testCase
        self.observation = observation
    }

    var settings: ClientSettings { observation.settings }

    public var verdict: Verdict {
        screen() ?? framesOnlyInDoubt ?? judge(testCase.check)
    }

    /// Not judged: the script's frames went out only on connections the client may have been
    /// closing to give its handshake up (`handshakeInDoubt`), so no answer to them was seen.
    private var framesOnlyInDoubt: Verdict? {
        let label = testCase.script.connection(0).firstSentLabel
        guard !label.isEmpty, firstWrite(label) == nil else { return nil }
        for (index, connection) in observation.connections.enumerated() where connection.written(label) != nil {
            guard let doubt = handshakeInDoubt(connection) else { continue }
            return Verdict(.unsupported, "the case's frames went out only as the client may have been giving its handshake up, so nothing could be judged: "
                           + "on connection \(index + 1), \(doubt)", requirements: testCase.requirements)
        }
        return nil
    }

    // MARK: - What spoils any case

    private func screen() -> Verdict? {
        let words = observation.lastWords.isEmpty ? "" : "; its standard error ended: \(observation.lastWords)"
        for exit in observation.exits {
            if case let .cannotStart(why) = exit { return Verdict(.harnessError, "the testee cannot be started: \(why)") }
            if case let .status(status) = exit, TesteeLaunch.neverStarted(status: status), observation.reports.isEmpty {
                return Verdict(.harnessError, "the testee cannot be started: " + (observation.lastWords.isEmpty ? "its command exited with status \(status)" : observation.lastWords))
            }
        }
        if let garbage = observation.garbage {
            return Verdict(.harnessError, "the testee printed something that is not an event (Specs/conform-client.md: one JSON object per line)",
                           expected: #"{"event":...}"#, actual: garbage)
        }
        for exit in observation.exits {
            if case let .signal(signal) = exit {
                return crashed("killed by signal \(signal)" + words)
            }
            if case let .status(status) = exit, let signal = TesteeLaunch.signal(inShellStatus: status) {
                return crashed("it exited with status \(status), as a shell reports signal \(signal)" + words)
            }
        }
        if let report = observation.reports.first(where: { $0.event.name == "unsupported" }), case let .unsupported(reason) = report.event {
            return Verdict(.unsupported, "the client does not implement what the case needs: \(reason)", requirements: testCase.requirements)
        }
        for exit in observation.exits {
            if exit == .status(89) {
                return Verdict(.unsupported, "the testee exited with status 89: it does not implement what the case needs" + words,
                               requirements: testCase.requirements)
            }
            if case let .status(status) = exit, status != 0 {
                // Its death is the failure, whatever the case was about, never the case's own
                // requirements; one that died of a fatal error (an uncaught exception) crashed.
                if LastWords.isFatal(observation.lastWords) { return crashed("it exited with status \(status)" + words) }
                return fail("the client exited with status \(status) before the case was done" + words,
                            expected: "exit status 0 once its input ends and its messages are settled", actual: "status \(status)",
                            requirements: [.ex5])
            }
        }
        if !testCase.needs.isEmpty, let offer, !offer.features.isSuperset(of: testCase.needs) {
            return Verdict(.unsupported, "the case needs \(testCase.needs.subtracting(offer.features)), which the client does not offer",
                           requirements: testCase.requirements)
        }
        for (index, connection) in observation.connections.enumerated() {
            guard let error = connection.clientError else { continue }
            let afterTheEnd = (connection.clientErrorTime ?? .zero) >= (observation.ended ?? .seconds(1 << 40))
            if error.code == .truncatedFrame && (afterTheEnd || observation.exits.contains(.stopped)) { continue }
            var verdict = fail("the client's bytes on connection \(index + 1) break the protocol: \(error.message)",
                               expected: "frames as the brief gives them", actual: "\(error.code.name) at offset \(error.offset)",
                               requirements: Self.writerRequirements(error))
            verdict.breaksMust = true
            return verdict
        }
        return nil
    }

    /// How the reason of a crash's verdict begins.
    public static let crashReason = "the client crashed"

    /// The client died: a failure of EX-5 (never crash) in any case, whatever it was about.
    private func crashed(_ how: String) -> Verdict {
        var verdict = fail("\(Self.crashReason) (\(how))", requirements: [.ex5])
        verdict.breaksMust = true
        return verdict
    }

    /// The rule a writer of bytes that fail with `error` broke.
    static func writerRequirements(_ error: WireError) -> [RequirementID] {
        switch error.code {
        case .checksumMismatch: error.isByteSwappedChecksum ? [.crc1, .crc3] : [.crc1]
        case .versionUnsupported: [.ver3]
        default: [error.requirement]
        }
    }

    // MARK: - Verdicts

    func pass(_ reason: String) -> Verdict {
        Verdict(.pass, reason, requirements: testCase.requirements)
    }

    func fail(_ reason: String, expected: String = "", actual: String = "", requirements: [RequirementID]? = nil) -> Verdict {
        Verdict(.fail, reason, expected: expected, actual: actual, requirements: requirements ?? testCase.requirements)
    }

    /// A pass with the SHOULDs (or warnings) that were not followed, or a clean pass.
    func pass(_ reason: String, notes: [(String, RequirementID)]) -> Verdict {
        guard !notes.isEmpty else { return pass(reason) }
        return Verdict(.passNonStrict, reason + "; but " + notes.map(\.0).joined(separator: "; "), requirements: notes.map(\.1))
    }

    /// The client never connected, so nothing can be judged.
    var neverConnected: Verdict {
        Verdict(.timeout, "the client never connected in \(Self.text(observation.ended ?? .zero))", requirements: testCase.requirements)
    }

    // MARK: - What the client did

    /// The client's first VERSION_REQUEST (in a fuzzing session, perhaps one an earlier case saw).
    var offer: VersionRequest? { Self.offer(in: observation.frames) ?? observation.priorOffer }

    /// The first VERSION_REQUEST among `frames`.
    static func offer(in frames: [ClientObservation.Received]) -> VersionRequest? {
        for received in frames where received.frame.header.messageType == .control {
            for field in received.frame.fields { if case let .versionRequest(request) = field.interpreted { return request } }
        }
        return nil
    }

    static func isVersionRequest(_ frame: Frame) -> Bool {
        frame.header.messageType == .control && frame.fields.contains { $0.tag == .versionRequest }
    }

    /// The first connection on which the server wrote a transmission whose label starts with
    /// `label`, and when: the script runs again on each connection the client makes. A connection
    /// whose handshake the client may have given up as the frame arrived is passed over
    /// (`handshakeInDoubt`): its close answers the handshake, not the frame.
    func firstWrite(_ label: String) -> (index: Int, time: Duration)? {
        for (index, connection) in observation.connections.enumerated() where handshakeInDoubt(connection) == nil {
            if let time = connection.written(label) { return (index, time) }
        }
        return nil
    }

    /// Why the client's close of `connection` may be its giving the handshake up rather than its
    /// answer to the frames after it, or nil: the script answered the VERSION_REQUEST an ACK
    /// timeout or more after it came (a loaded machine), when reopening the connection is the
    /// client's legal choice (EX-7), and the client neither acknowledged the answer nor reported a
    /// handshake before it closed. Once such a close was taken for the refusal of a frame the
    /// client ignores, written 0.09 ms before it (a false pass).
    func handshakeInDoubt(_ connection: ClientObservation.Connection) -> String? {
        guard closedByClient(connection), let answered = connection.answered, let closed = connection.closed else { return nil }
        if let response = connection.responseSequence, !connection.acks(of: response).isEmpty { return nil }
        let reported = observation.reports.contains { report in
            if case .handshake = report.event { (answered...closed).contains(report.time) } else { false }
        }
        let asked = connection.frames.first { Self.isVersionRequest($0.frame) }?.time ?? connection.opened
        guard !reported, answered - asked >= settings.ackTimeout - TimingTolerance.early else { return nil }
        return "the server answered the client's handshake \(Self.text(answered - asked)) after its request, past the client's ACK timeout of "
            + "\(Self.text(settings.ackTimeout)), and the client closed the connection without acknowledging the answer: it may have given the handshake up (EX-7)"
    }

    /// The connection the case's frames went out on: the first that carried the script's first
    /// transmission (a client may close one and come back before that, on its own handshake
    /// deadline on a loaded machine, and what it did there says nothing of the case's frames);
    /// the first connection when the script sends nothing.
    var caseConnection: Int { firstWrite(testCase.script.connection(0).firstSentLabel)?.index ?? 0 }

    /// The sentinel was acknowledged on connection `index`, or on any connection.
    func sentinelAcknowledged(on index: Int? = nil) -> Bool {
        let connections = index.map { observation.connections.indices.contains($0) ? [observation.connections[$0]] : [] } ?? observation.connections
        return connections.contains { !$0.acks(of: testCase.sentinel).isEmpty }
    }

    /// Whether the script sends the sentinel; otherwise the connection's close ends what can arrive.
    var scriptSendsSentinel: Bool {
        testCase.script.connections.contains { $0.steps.contains(.awaitAck(testCase.sentinel)) }
    }

    /// What the server's script was still waiting for when the case ended before it finished:
    /// why a frame the case meant to send never went out.
    var scriptWaiting: String? {
        observation.waitingFor.map { "the server's script was still waiting for \($0)" }
    }

    /// Why the sentinel's ACK is missing: the script never got as far as sending it (a case
    /// cut short), the client closed first, or it never acknowledged it (EX-1).
    var sentinelMissing: Verdict {
        let sent = observation.connections.contains { connection in connection.writes.contains { $0.headers.contains { $0.sequence == testCase.sentinel } } }
        guard sent else {
            let waiting = scriptWaiting.map { ": " + $0 } ?? ""
            return Verdict(.timeout, "the case ended before the server sent the DATA frame that follows the case's frames\(waiting)",
                           expected: "the script to reach its DATA frame \(testCase.sentinel)", actual: "not sent", requirements: testCase.requirements)
        }
        let closed = observation.connections.indices.contains(caseConnection) && closedByClient(observation.connections[caseConnection])
        return fail(closed ? "the client closed the connection before it acknowledged the DATA frame sent after the case's frames"
                           : "the client never acknowledged the DATA frame sent after the case's frames (EX-1)",
                    expected: "an ACK of \(testCase.sentinel)", actual: "none", requirements: closed ? testCase.requirements : [.ex1])
    }

    /// The client's DATA frames carrying message `message`'s body, on every connection, in order.
    func sends(of message: ClientCase.Message) -> [ClientObservation.Received] {
        observation.dataFrames.filter { Array($0.frame.payload) == message.payload }.sorted { $0.time < $1.time }
    }

    /// The client's DATA frames, first sends only (a sequence seen before is a resend), in order.
    var firstSends: [ClientObservation.Received] {
        var seen: Set<UInt32> = []
        return observation.dataFrames.sorted { $0.time < $1.time }.filter { seen.insert($0.frame.header.sequence.rawValue).inserted }
    }

    /// `DATA seq NORMAL/1 session 0x0001 [TEXT]`.
    static func describe(_ frame: Frame) -> String { TranscriptRenderer.describe(frame) }

    /// A payload for people: its TEXT fields quoted and its other fields by tag and size, or its
    /// first bytes in hex.
    static func describe(payload: [UInt8]) -> String {
        let elements = Array(TLVSequence(payload))
        if elements.contains(where: { $0.tag == .text }) && payload.count < 200 {
            return elements.map { element in
                element.tag == .text ? String(decoding: element.value.prefix(60), as: UTF8.self).debugDescription : "[\(element.tag) \(element.value.count) bytes]"
            }.joined(separator: " + ")
        }
        return payload.isEmpty ? "(empty)" : "\(payload.count) bytes " + Hex.string(payload.prefix(16)) + (payload.count > 16 ? "…" : "")
    }

    static func text(_ duration: Duration) -> String { DurationText.milliseconds(duration, decimals: 0) }

    static func texts(_ durations: [Duration]) -> String {
        durations.map { String(Int(DurationText.milliseconds($0).rounded())) }.joined(separator: ", ") + " ms"
    }
}
