import DecafVectors
import DecafWire

/// The frames, messages and steps client cases are built from: the server's frames in the session
/// and with the counters every case uses, and the sentinel that closes a case.
enum ClientCaseSteps {
    /// The sentinel DATA frame's sequence: far from the counters cases use.
    static let sentinel = SequenceNumber(category: .normal, counter: CaseFrames.sentinelCounter)
    static let sentinelText = "sentinel"

    /// Sends the sentinel, waits for its ACK, and ends the case: everything the server sent before
    /// it has been handled by then.
    static let closing = closing(turn: 0)

    /// The sentinel of the case at `turn` of a fuzzing session (from 0): a sequence of its own,
    /// so no case's sentinel repeats an earlier one's (REPLAY-1).
    static func sentinel(turn: UInt32) -> SequenceNumber {
        SequenceNumber(category: .normal, counter: CaseFrames.sentinelCounter + turn)
    }

    /// `closing` with the sentinel of `turn`.
    static func closing(turn: UInt32) -> [ServerStep] {
        [data(CaseFrames.sentinelCounter + turn, sentinelText), .awaitAck(sentinel(turn: turn)), .finish]
    }

    /// The one message most cases have the client send.
    static let message = ClientCase.Message("m1", text: "hello from the client")

    /// `count` messages with different texts.
    static func messages(_ count: Int) -> [ClientCase.Message] {
        (1...count).map { ClientCase.Message("m\($0)", text: "message \($0) of \(count)") }
    }

    /// The TLV bytes of a body with one TEXT field.
    static func payload(_ text: String) -> [UInt8] { TLVEncoder.encode([TLVField(tag: .text, text: text)]) }

    /// A DATA frame from the server with one TEXT field.
    static func data(_ counter: UInt32, _ text: String, category: SequenceCategory = .normal, session: SessionID = CaseFrames.session,
                     split: [Int] = [], pause: Duration = .zero, skew: Int64 = 0) -> ServerStep {
        frame(CaseFrames.header(.data, counter, category: category, session: session), [TLVField(tag: .text, text: text)],
              split: split, pause: pause, skew: skew)
    }

    /// A frame from the server, its timestamp set to the run's clock plus `skew`.
    static func frame(_ header: FrameHeader, _ fields: [TLVField] = [], split: [Int] = [], pause: Duration = .zero, skew: Int64 = 0) -> ServerStep {
        .send(CaseFrames.transmission(header, fields, split: split, pause: pause, skew: skew))
    }

    /// A frame whose body is exactly `body` (compressed or not, valid or not), with the right
    /// body_length and checksum unless `damage` breaks them.
    /// With `minorAboveClient`, its version is set when it is sent: one minor above the client's
    /// highest, as the client said it in its `ready` line.
    static func raw(_ header: FrameHeader, body: [UInt8], damage: FrameDamage = FrameDamage(), label: String, minorAboveClient: Bool = false) -> ServerStep {
        var header = header
        header.bodyLength = UInt32(body.count)
        header.checksum = CRC32.checksum(body)
        let bytes = damage.apply(to: header.bytes + body)
        return .send(Transmission(label: label, bytes: bytes, stamps: [Transmission.Stamp(headerOffset: 0, minorAboveReceiver: minorAboveClient)]))
    }

    /// A DATA frame with one TEXT field, broken by `damage`.
    static func damaged(_ damage: FrameDamage, label: String, header change: (inout FrameHeader) -> Void = { _ in }) -> ServerStep {
        var header = CaseFrames.header(.data, 1)
        change(&header)
        return raw(header, body: payload("this frame is broken"), damage: damage, label: label)
    }
}
