import DecafVectors
import DecafWire

extension ClientCase {
    /// The counter the server's CONTROL sequences start after in a `receiving` case: far from the
    /// counters vectors and fuzzed inputs use, so no input is taken for the VERSION_RESPONSE (an
    /// input with its sequence, or the sentinel's, makes no case).
    public static let receivingControlCounter: UInt32 = 0xF0_0000

    /// How many cases a fuzzing session may run with one client (`turn` of `receiving`): each has
    /// a sentinel of its own, and the counters from `receivingControlCounter` and the sentinel's
    /// on are kept for the server, one for each turn.
    public static let turns: UInt32 = 0x1_0000

    /// The case of a client that the server sends `vector`'s bytes right after the handshake, cut
    /// into writes of `split` bytes: what a receiver must do with them, as the server suite's vector
    /// cases ask of a server. A frame the brief accepts is taken (acknowledged once unless it is an
    /// ACK or of an undefined type, delivered once if DATA, the connection kept: the sentinel after
    /// it is acknowledged); one it refuses is refused with a close (EX-5); a frame cut short is not
    /// delivered when the server closes; where the brief lets a receiver choose, either answer
    /// stands. A CONTROL frame with an ERROR or handshake TLV is a recommended case: the brief says
    /// what a client does with one only as far as the ACK. The server offers BASIC and COMPRESSION;
    /// a compressed frame needs a client that offers COMPRESSION. Nil when the bytes carry the
    /// sequence of a VERSION_RESPONSE or of a sentinel of the server's, or a header cannot be read
    /// where the case needs one. A case at `turn` of a fuzzing session (one client fed many
    /// inputs) has the sentinel of its turn. `moment` is what is left on either side of the
    /// server's close after a frame cut short.
    public static func receiving(_ vector: FrameVector, group: String, split: [Int] = [], limit: Duration? = nil, turn: UInt32 = 0,
                                 moment: Duration = .milliseconds(25)) -> ClientCase? {
        let header = FrameHeader(decoding: vector.bytes)
        if let sequence = header?.sequence, isReserved(sequence) { return nil }
        let closing = ClientCaseSteps.closing(turn: turn % turns)
        var transmission = VectorCases.transmission(vector)
        transmission.split = split
        transmission.pause = split.isEmpty ? .zero : .milliseconds(2)
        let send = ServerStep.send(transmission)
        let needs: FeatureFlags = header?.compressType == .zlib ? .compression : []
        func made(_ requirements: [RequirementID], _ level: ConformanceLevel, _ summary: String, _ steps: [ServerStep], _ check: ClientCheck) -> ClientCase {
            // A client that closes and comes back finds a server with nothing more to say.
            let script = ServerScript(features: [.basic, .compression], controlCounter: receivingControlCounter,
                                      connections: [ConnectionScript(steps: steps), ConnectionScript(steps: [.finish])])
            var made = ClientCase("client.wire.\(group).\(vector.tcId)", VectorCases.unique(requirements), level, summary, script: script,
                                  needs: needs, check: check)
            made.limit = limit
            made.sentinel = ClientCaseSteps.sentinel(turn: turn % turns)
            return made
        }
        switch vector.expectation {
        case let .valid(expected):
            guard let header else { return nil }
            if vector.requirements.contains(.ts1) {
                return made(vector.requirements, .optional, vector.comment + " (a client may enforce a window)",
                            [send, .pause(.milliseconds(300))] + closing, .acceptsOrRefuses(header.sequence, .timestampOutOfWindow, acknowledged: header.messageType.isAcknowledged))
            }
            let type = header.messageType
            let acknowledged = type.isAcknowledged
            let requirements = vector.requirements + (acknowledged ? [type == .heartbeat ? .ex2 : .ex1] : type == .ack ? [.ex3] : [.frame4, .ex3])
            let announces = type == .control && TLVSequence(expected.payload).contains { [.error, .versionRequest, .versionResponse].contains($0.tag) }
            return made(requirements, announces ? .recommended : .required, vector.comment, [send] + closing,
                        .takes(header.sequence, session: header.sessionID, acknowledged: acknowledged, payload: type == .data ? expected.payload : nil))
        case let .invalid(refusal):
            let error = refusal.error
            // A frame cut short, or one with a wrong header whose header or body has not all come: a
            // stream decoder may wait for the rest, so only what it does when the stream ends is
            // judged (a moment is left on either side of the close for it to deliver what it must not).
            if error == .truncatedFrame || VectorCases.isCutShort(vector.bytes, header: header, refusedWith: error) {
                return made(vector.requirements + [.ex5], .required, vector.comment + "; then the server closes",
                            [send, .pause(moment), .close, .pause(moment), .finish], .truncatedIgnored)
            }
            return made(vector.requirements + [.ex5], .required, vector.comment, [send, .awaitClosed, .finish],
                        .refuses(error, sequence: header?.sequence))
        case let .acceptable(_, refusal):
            guard let header else { return nil }
            return made(vector.requirements, .required, vector.comment, [send, .pause(.milliseconds(300))] + closing,
                        .acceptsOrRefuses(header.sequence, refusal.error, acknowledged: header.messageType.isAcknowledged))
        }
    }

    /// The turn of a fuzzing session a `receiving` case was made for: its sentinel's.
    public var turn: UInt32 { sentinel.counter &- CaseFrames.sentinelCounter }

    /// The input of a `receiving` case: the bytes its server sends after the handshake, before
    /// they are stamped with the clock.
    public var input: [UInt8] { script.connection(0).transmissions.first?.bytes ?? [] }

    /// Whether `sequence` is one the server of a `receiving` case keeps for its own frames: the
    /// CONTROL counters of its VERSION_RESPONSEs and the NORMAL counters of its sentinels.
    static func isReserved(_ sequence: SequenceNumber) -> Bool {
        switch sequence.category {
        case .control: (receivingControlCounter + 1...receivingControlCounter + turns).contains(sequence.counter)
        case .normal: (CaseFrames.sentinelCounter..<CaseFrames.sentinelCounter + turns).contains(sequence.counter)
        default: false
        }
    }
}
