import DecafWire

/// The checks on hostile servers: a broken frame is refused, never delivered or acknowledged, and
/// the connection closed (EX-5), with the error reported and an ERROR sent where the client can;
/// and on any one frame a server sends (a fuzzed input): taken as the brief says, or refused.
extension ClientJudge {
    func judgeRefusal(_ code: ErrorCode, sequence: SequenceNumber?) -> Verdict {
        if let payload = observation.delivered.first {
            return fail("the client delivered a frame it must refuse (\(code.name))", expected: "nothing delivered", actual: Self.describe(payload: payload))
        }
        if let sequence, observation.connections.contains(where: { !$0.acks(of: sequence).isEmpty }) {
            return fail("the client acknowledged a frame it must refuse (\(code.name))", expected: "no ACK, a close", actual: "an ACK of \(sequence)")
        }
        // A close proves a refusal only once the frame to refuse was sent, on the connection that
        // carried it: the frame the script sends last before it waits for the close.
        let label = testCase.script.connection(0).lastSentLabel(before: .awaitClosed)
        guard let (index, sentAt) = firstWrite(label) else {
            return neverSent("the frame the client must refuse (\(code.name))")
        }
        let connection = observation.connections[index]
        // The close may come once the client has handled what it refuses: a second more for each
        // MiB of it, as a case's time limit allows (a zlib bomb is inflated to the body limit first).
        let handled = testCase.script.connection(0).transmissions
            .flatMap { Transmission.headers(in: $0.bytes) }
            .map { $0.compressType == .zlib ? DecodeOptions.defaultBodyLimit : Int($0.bodyLength) }.max() ?? 0
        let allowed = TimingTolerance.late(.zero) + .seconds(handled >> 20)
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
        connection.closedBy == .client && (connection.closed ?? .zero) <= (observation.ended ?? .seconds(1 << 40))
    }

    /// Who closed `connection`, in a verdict's words: `closed by the server's script`, `still open`.
    func closer(_ connection: ClientObservation.Connection) -> String {
        switch connection.closedBy {
        case .suite: "closed by the suite at the case's end"
        case .script: "closed by the server's script"
        case .client: closedByClient(connection) ? "closed by the client" : "closed by the client after the case ended"
        case nil: "still open"
        }
    }

    /// The case's frame never went out: why (the client closed first, or the script was still
    /// waiting), and nothing judged.
    func neverSent(_ frame: String) -> Verdict {
        let before = observation.connections.last.flatMap { connection in
            connection.closed.map { "the connection was \(closer(connection)) at \(Self.text($0)), before it" }
        } ?? scriptWaiting ?? "the case ended before it"
        return Verdict(.unsupported, "the case never sent \(frame): \(before), so nothing could be judged", requirements: testCase.requirements)
    }

    func judgeAcceptOrRefusal(_ sequence: SequenceNumber, _ code: ErrorCode, acknowledged: Bool) -> Verdict {
        // Judged on the connection that carried the frame: a client may close one and come back
        // before the frame goes out (its own handshake deadline on a loaded machine), and that
        // close refuses nothing.
        guard let (index, sentAt) = firstWrite(testCase.script.connection(0).firstSentLabel) else {
            return neverSent("the frame the client may take or refuse (\(code.name))")
        }
        let connection = observation.connections[index]
        if !connection.acks(of: sequence).isEmpty {
            guard acknowledged else {
                return fail("the client acknowledged \(sequence), which must never be acknowledged", expected: "no ACK", actual: "an ACK", requirements: [.ex3])
            }
            guard sentinelAcknowledged(on: index) else { return sentinelMissing }
            return pass("accepted the frame and acknowledged it, as the brief allows")
        }
        // A frame that gets no ACK is taken in silence: the DATA frame after it acknowledged on
        // the same connection.
        if !acknowledged, sentinelAcknowledged(on: index) {
            return pass("took the frame in silence (its type gets no ACK) and acknowledged the DATA frame after it, as the brief allows")
        }
        // A refusal is the client's own close after the frame, before it took the frame after it.
        if let closed = connection.closed, closedByClient(connection), closed >= sentAt, !sentinelAcknowledged(on: index) {
            let errors = observation.reports.compactMap { if case let .error(name) = $0.event { name } else { nil } }
            return pass("refused the frame (\(errors.first ?? "no error reported")) and closed \(Self.text(closed - sentAt)) after it, as the brief allows")
        }
        let state = sentinelAcknowledged(on: index) ? "the DATA frame after it acknowledged" : "the connection \(closer(connection))"
        let taken = acknowledged ? "an ACK of \(sequence)" : "the DATA frame after it acknowledged"
        return fail("the client neither took the frame nor refused it", expected: "\(taken), or \(code.name) and a close",
                    actual: "neither: no ACK, and \(state)")
    }

    func judgeTruncated() -> Verdict {
        if let payload = observation.delivered.first {
            return fail("the client delivered a frame cut off by the end of the stream", expected: "nothing delivered", actual: Self.describe(payload: payload))
        }
        // Nothing delivered proves something only once the cut frame and the close reached it.
        guard let (index, cut) = firstWrite(testCase.script.connection(0).firstSentLabel) else { return neverSent("its cut-off frame") }
        let connection = observation.connections[index]
        guard connection.closedBy == .script, let closed = connection.closed else {
            return Verdict(.unsupported, "the connection closed before the server's script ended the stream after the cut-off frame, so nothing could be judged",
                           requirements: testCase.requirements)
        }
        return pass("nothing delivered from a frame cut off by the end of the stream: the first 20 bytes sent at \(Self.text(cut)), "
                    + "the stream ended at \(Self.text(closed)), and the client neither delivered nor crashed by the case's end at \(Self.text(observation.ended ?? closed))")
    }

    func judgeTaking(_ sequence: SequenceNumber, session: SessionID, acknowledged: Bool, payload: [UInt8]?) -> Verdict {
        let closedByClient = closedByClient(observation.connections[caseConnection])
        // Neither the frame after it acknowledged nor the connection closed when the case ran out
        // of time: the client stopped handling the connection.
        if observation.timedOut, !sentinelAcknowledged(), !closedByClient {
            return Verdict(.timeout, "the client neither acknowledged the DATA frame sent after the frame nor closed the connection in \(Self.text(observation.ended ?? .zero))",
                           requirements: [.ex5])
        }
        if closedByClient, !sentinelAcknowledged(on: caseConnection) {
            let errors = observation.reports.compactMap { if case let .error(name) = $0.event { name } else { nil } }
            let said = errors.isEmpty ? "" : " (\(errors.joined(separator: ", ")))"
            return fail("the client refused a frame the brief accepts\(said) and closed the connection",
                        expected: acknowledged ? "one ACK of \(sequence), and the connection kept" : "no ACK, and the connection kept",
                        actual: "\(errors.first ?? "no error reported"), and a close")
        }
        let acks = judge(acknowledged ? .acknowledgedOnce(sequence, session: session) : .notAcknowledged(sequence))
        guard acks.kind.isPass else { return acks }
        let sentinel = ClientCase.sentinelPayload
        if payload != nil, observation.mayBeRepeat, observation.delivered == [sentinel] {
            return pass("took the frame as a repeat of one sent earlier in the session: one ACK, not delivered again (REPLAY-1), and the next DATA frame acknowledged")
        }
        let delivered = judge(.delivered((payload.map { [$0] } ?? []) + [sentinel]))
        guard delivered.kind.isPass else { return delivered }
        return pass("took the frame: \(acknowledged ? "one ACK" : "no ACK"), \(payload == nil ? "nothing delivered" : "delivered once"), and the next DATA frame acknowledged")
    }
}
