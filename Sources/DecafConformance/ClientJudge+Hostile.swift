import DecafWire

/// The checks on hostile servers: a broken frame is refused, never delivered or acknowledged, and
/// the connection closed (EX-5), with the error reported and an ERROR sent where the client can;
/// and on any one frame a server sends (a fuzzed input): taken as the brief says, or refused.
extension ClientJudge {
    func judgeRefusal(_ code: ErrorCode, sequence: SequenceNumber?) -> Verdict {
        let connection = observation.connections[0]
        let label = testCase.script.connection(0).steps.lazy.compactMap { if case let .send(transmission) = $0 { transmission.label } else { nil } }.first ?? ""
        let sentAt = connection.writes.first { $0.label.hasSuffix(label) }?.time ?? connection.answered ?? connection.opened
        if let payload = observation.delivered.first {
            return fail("the client delivered a frame it must refuse (\(code.name))", expected: "nothing delivered", actual: Self.describe(payload: payload))
        }
        if let sequence, !connection.acks(of: sequence).isEmpty {
            return fail("the client acknowledged a frame it must refuse (\(code.name))", expected: "no ACK, a close", actual: "an ACK of \(sequence)")
        }
        let allowed = TimingTolerance.late(.zero)
        guard let closed = connection.closed, closedByClient(connection) else {
            return fail("the client never closed the connection after a frame it must refuse (\(code.name))",
                        expected: "the close within \(Self.text(allowed))", actual: "still open when the case ended \(Self.text((observation.ended ?? sentAt) - sentAt)) after the frame",
                        requirements: testCase.requirements + [.ex5])
        }
        guard closed - sentAt <= allowed else {
            return fail("the client closed \(Self.text(closed - sentAt)) after a frame it must refuse", expected: "within \(Self.text(allowed))",
                        actual: Self.text(closed - sentAt), requirements: testCase.requirements + [.ex5])
        }
        var notes: [(String, RequirementID)] = []
        let errors = observation.reports.compactMap { if case let .error(name) = $0.event { name } else { nil } }
        if !errors.contains(code.name) {
            notes.append((errors.isEmpty ? "it reported no error event" : "it reported \(errors.joined(separator: ", ")) rather than \(code.name)",
                          testCase.requirements[0]))
        }
        let sentError = connection.frames.contains { received in
            received.frame.fields.contains { if case let .error(report) = $0.interpreted { report.code == code.rawValue } else { false } }
        }
        if !sentError { notes.append(("it closed without an ERROR TLV of code \(code.rawValue) (\(code.name))", .ex5)) }
        return pass("refused the frame and closed \(Self.text(closed - sentAt)) after it", notes: notes)
    }

    /// Whether the client closed `connection`: not the server's script, and not after the case's
    /// end, which is the suite stopping the client (a close at the end is the one that ended it:
    /// the script waited for it).
    func closedByClient(_ connection: ClientObservation.Connection) -> Bool {
        connection.closed.map { !connection.closedByServer && $0 <= (observation.ended ?? .seconds(1 << 40)) } ?? false
    }

    func judgeAcceptOrRefusal(_ sequence: SequenceNumber, _ code: ErrorCode) -> Verdict {
        let connection = observation.connections[0]
        if !connection.acks(of: sequence).isEmpty {
            guard sentinelAcknowledged(on: 0) else { return sentinelMissing }
            return pass("accepted the frame and acknowledged it, as the brief allows")
        }
        if let closed = connection.closed, !connection.closedByServer {
            let errors = observation.reports.compactMap { if case let .error(name) = $0.event { name } else { nil } }
            return pass("refused the frame (\(errors.first ?? "no error reported")) and closed after \(Self.text(closed - connection.opened)), as the brief allows")
        }
        return fail("the client neither acknowledged the frame nor refused it", expected: "an ACK of \(sequence), or \(code.name) and a close", actual: "neither")
    }

    func judgeTruncated() -> Verdict {
        if let payload = observation.delivered.first {
            return fail("the client delivered a frame cut off by the end of the stream", expected: "nothing delivered", actual: Self.describe(payload: payload))
        }
        return pass("nothing delivered from a frame cut off by the end of the stream")
    }

    func judgeTaking(_ sequence: SequenceNumber, session: SessionID, acknowledged: Bool, payload: [UInt8]?) -> Verdict {
        let closedByClient = closedByClient(observation.connections[0])
        // Neither the frame after it acknowledged nor the connection closed when the case ran out
        // of time: the client stopped handling the connection.
        if observation.timedOut, !sentinelAcknowledged(), !closedByClient {
            return Verdict(.timeout, "the client neither acknowledged the DATA frame sent after the frame nor closed the connection in \(Self.text(observation.ended ?? .zero))",
                           requirements: [.ex5])
        }
        if closedByClient, !sentinelAcknowledged() {
            let errors = observation.reports.compactMap { if case let .error(name) = $0.event { name } else { nil } }
            let said = errors.isEmpty ? "" : " (\(errors.joined(separator: ", ")))"
            return fail("the client refused a frame the brief accepts\(said) and closed the connection",
                        expected: acknowledged ? "one ACK of \(sequence), and the connection kept" : "no ACK, and the connection kept",
                        actual: "\(errors.first ?? "no error reported"), and a close")
        }
        let acks = judge(acknowledged ? .acknowledgedOnce(sequence, session: session) : .notAcknowledged(sequence))
        guard acks.kind.isPass else { return acks }
        let delivered = judge(.delivered((payload.map { [$0] } ?? []) + [ClientCaseSteps.payload(ClientCaseSteps.sentinelText)]))
        guard delivered.kind.isPass else { return delivered }
        return pass("took the frame: \(acknowledged ? "one ACK" : "no ACK"), \(payload == nil ? "nothing delivered" : "delivered once"), and the next DATA frame acknowledged")
    }
}
