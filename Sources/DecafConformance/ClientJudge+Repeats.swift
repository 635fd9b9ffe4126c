import DecafWire

/// The checks on repeats that reach beyond one connection or one delivery: a repeat on a new
/// connection (REPLAY-1) and the read receipts of a repeat (EX-4).
extension ClientJudge {
    func judgeRepeatAcrossConnections(_ sequence: SequenceNumber, payload: [UInt8]) -> Verdict {
        guard observation.connections.count >= 2 else {
            return Verdict(.unsupported, "the client did not connect again after the server closed, so no repeat could reach it on a new connection "
                           + "(reconnecting is a SHOULD: RECONNECT-1)", requirements: testCase.requirements)
        }
        let deliveries = observation.delivered.count { $0 == payload }
        guard deliveries <= 1 else {
            return fail("the client delivered \(Self.describe(payload: payload)) again when its DATA frame came again, with the same sequence and timestamp, on a new connection",
                        expected: "delivered once: a repeat is remembered across the session's connections", actual: "delivered \(deliveries) times")
        }
        guard deliveries == 1 else {
            return fail("the client never delivered the server's DATA frame", expected: "delivered once", actual: "not delivered", requirements: [.ex1])
        }
        guard !observation.connections[1].acks(of: sequence).isEmpty else {
            if sentinelAcknowledged(on: 1) {
                return fail("the client did not acknowledge the repeat on the new connection", expected: "an ACK of \(sequence) on connection 2",
                            actual: "none, though it acknowledged the DATA frame after it")
            }
            return sentinelMissing
        }
        return pass("the repeat on the new connection was acknowledged and not delivered again")
    }

    func judgeNoReceiptForRepeat(_ sequence: SequenceNumber) -> Verdict {
        guard sentinelAcknowledged() else { return sentinelMissing }
        let naming = observation.frames.filter { received in
            received.frame.header.messageType == .readReceipt
                && received.frame.fields.contains { if case let .readReceipt(receipt) = $0.interpreted { receipt.sequence == sequence } else { false } }
        }
        guard naming.count <= 1 else {
            return fail("the client sent \(naming.count) READ_RECEIPTs for one DATA frame that the server sent twice",
                        expected: "at most one: none for the repeat", actual: naming.map { Self.describe($0.frame) }.joined(separator: "; "))
        }
        return pass(naming.isEmpty ? "no READ_RECEIPT for the frame or its repeat" : "one READ_RECEIPT for the frame, none for its repeat")
    }
}
