@testable import DecafConformance
import DecafSession
import DecafVectors
import DecafWire
import Testing

/// Cases of a fuzzing session (one client fed many inputs, AFLNet-style), judged without a
/// client: the scripted server hands its connection from one case to the next past the handshake,
/// every case has a sentinel of its own, and a frame that repeats an earlier case's sequence and
/// timestamp may be taken for a repeat.
@Suite("client session cases")
struct ClientSessionCaseTests {
    static let clock: UInt32 = 1_800_000_000

    static func time(_ milliseconds: Int) -> SessionTime { SessionTime(elapsed: .milliseconds(milliseconds), unixSeconds: clock) }

    static func frame(_ type: MessageType, _ sequence: SequenceNumber, fields: [TLVField] = [], timestamp: UInt32 = clock) -> Frame {
        var encoder = FrameEncoder()
        let bytes = encoder.encode(FrameHeader(messageType: type, sequence: sequence, timestamp: timestamp, sessionID: CaseFrames.session),
                                   payload: TLVEncoder.encode(fields))
        var decoder = FrameDecoder()
        decoder.append(bytes)
        return try! decoder.nextFrame()!
    }

    /// A DATA frame from the server, as a vector a client must take and deliver.
    static func dataCase(turn: UInt32) throws -> ClientCase {
        var encoder = FrameEncoder()
        let fields = [TLVField(tag: .text, text: "hello")]
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: 1), timestamp: 1, sessionID: CaseFrames.session)
        let bytes = encoder.encode(header, payload: TLVEncoder.encode(fields))
        var decoder = FrameDecoder()
        decoder.append(bytes)
        let vector = FrameVector(tcId: 1, comment: "a DATA frame", requirements: [.frame1], bytes: bytes,
                                 expectation: .valid(ExpectedFrame(taken: try #require(try decoder.nextFrame()))))
        return try #require(ClientCase.receiving(vector, group: "fuzz", turn: turn))
    }

    /// The writes of `actions`, in order.
    static func writes(_ actions: [ScriptedServerAction]) -> [[UInt8]] {
        actions.compactMap { if case let .write(_, bytes, _) = $0 { bytes } else { nil } }
    }

    /// The headers of the whole frames `actions` write.
    static func headers(_ actions: [ScriptedServerAction]) -> [FrameHeader] {
        writes(actions).flatMap(Transmission.headers(in:))
    }

    @Test("a case takes over the connection the last one left, past its handshake, and a frame it repeats may be taken for a repeat")
    func handedOver() throws {
        let first = try Self.dataCase(turn: 0)
        var server = ScriptedServer(script: first.script, settings: .suggested)
        _ = server.start(at: Self.time(0))
        _ = server.accepted(at: Self.time(1))
        let request = Self.frame(.control, SequenceNumber(category: .control, counter: 1), fields: [VersionRequest(version: .v1_0, features: [.basic, .compression]).field])
        let sent = Self.headers(server.received(request, on: 0, at: Self.time(2)))
        #expect(sent.contains { $0.sequence == first.sentinel }, "the input and the sentinel follow the handshake's answer")
        #expect(server.handOff(0) == nil, "nothing is handed over while the script still runs")
        _ = server.received(Self.frame(.ack, SequenceNumber(category: .normal, counter: 1)), on: 0, at: Self.time(3))
        let finished = server.received(Self.frame(.ack, first.sentinel), on: 0, at: Self.time(4))
        #expect(finished.contains { if case .finish = $0 { true } else { false } })
        let handoff = try #require(server.handOff(0))

        // The next case: its own sentinel, its steps at once on the same connection.
        let second = try Self.dataCase(turn: 1)
        #expect(second.sentinel != first.sentinel)
        var next = ScriptedServer(script: second.script, settings: .suggested, after: handoff)
        let adopted = Self.headers(next.adopt(handoff, at: Self.time(0)))
        #expect(adopted.map(\.messageType) == [.data, .data], "no handshake: the input and the sentinel go out at once")
        #expect(adopted.last?.sequence == second.sentinel)
        #expect(next.observation.mayBeRepeat, "the input has the sequence and timestamp the last case's had")
        #expect(next.observation.priorOffer?.features == [.basic, .compression], "what the client offered is known to the judge")
        _ = next.received(Self.frame(.ack, SequenceNumber(category: .normal, counter: 1)), on: 0, at: Self.time(1))
        _ = next.received(Self.frame(.ack, second.sentinel), on: 0, at: Self.time(2))
        _ = next.reported(.delivered(payload: ClientCase.sentinelPayload), instance: 0, at: Self.time(3))
        next.end(at: Self.time(4), timedOut: false, lastWords: "")
        let repeated = ClientJudge(testCase: second, observation: next.observation).verdict
        #expect(repeated.kind == .pass && repeated.reason.contains("repeat"), "\(repeated.kind): \(repeated.reason)")
        // Not a repeat, the same answer is a frame acknowledged and never delivered.
        var fresh = next.observation
        fresh.mayBeRepeat = false
        #expect(ClientJudge(testCase: second, observation: fresh).verdict.kind == .fail)
    }

    @Test("the server's own sequences are kept from the inputs: a VERSION_RESPONSE's or a sentinel's of any turn makes no case")
    func reservedSequences() throws {
        #expect(ClientCase.isReserved(ClientCaseSteps.sentinel(turn: 7)))
        #expect(ClientCase.isReserved(SequenceNumber(category: .control, counter: ClientCase.receivingControlCounter + 9)))
        #expect(!ClientCase.isReserved(SequenceNumber(category: .normal, counter: 1)))
        #expect(!ClientCase.isReserved(SequenceNumber(category: .control, counter: ClientCase.receivingControlCounter)))
    }

    /// A quarter of the fuzzer's inputs go out in parts; a client that refused one after its first
    /// part was once "never sent" the frame, and a quarter of the inputs were not judged.
    @Test("a frame that goes out in parts is sent from its first part: a close after it refuses the frame")
    func sentInParts() throws {
        let testCase = try #require(ClientCatalog.cases.first { $0.id == "client.frame.bad-magic" })
        let label = testCase.script.connection(0).firstSentLabel
        #expect(Transmission.write(Transmission.part(1, of: label), carries: label))
        #expect(!Transmission.write("part 1: something else", carries: label))
        var observation = ClientObservation(settings: .suggested)
        var connection = ClientObservation.Connection(opened: .milliseconds(10))
        connection.answered = .milliseconds(20)
        connection.writes = [ClientObservation.Write(time: .milliseconds(30), label: Transmission.part(1, of: label), bytes: 12)]
        connection.closed = .milliseconds(40)
        connection.closedBy = .client
        observation.connections = [connection]
        observation.ended = .milliseconds(40)
        let verdict = ClientJudge(testCase: testCase, observation: observation).verdict
        #expect(verdict.kind.isPass, "\(verdict.kind): \(verdict.reason)")
    }
}
