@testable import DecafConformance
import DecafSession
import DecafWire
import Testing

/// The server suite's judge on its own: no socket, no clock, no task. Each test plays the
/// target's side as events with the case's time and checks what the judge asks for and decides.
@Suite("the server suite's judge")
struct ServerJudgeTests {
    static let session = SessionID(rawValue: 0x4401)
    static let target = TargetIdentity(version: .v1_0, features: .known, note: "")

    static func at(_ milliseconds: Int) -> SessionTime {
        SessionTime(elapsed: .milliseconds(milliseconds), unixSeconds: 1_700_000_100)
    }

    static func judge(_ steps: [ConformanceStep], idleTimeout: Duration? = nil) -> ServerJudge {
        ServerJudge(testCase: ConformanceCase("test.case", [.ex1], .required, "a case for the judge's tests", steps: steps), target: target,
                    timeout: .seconds(2), idleTimeout: idleTimeout, session: session, stampsFrames: true)
    }

    /// A frame as the target would send it, decoded as the driver hands it on.
    static func frame(_ header: FrameHeader, _ fields: [TLVField] = []) -> Frame {
        var decoder = FrameDecoder()
        decoder.append(CaseFrames.bytes(header, fields))
        return try! decoder.nextFrame()!
    }

    /// The target's ACK of `sequence`, echoing the run's session unless told otherwise.
    static func ack(_ sequence: SequenceNumber, session: SessionID = session) -> Frame {
        frame(FrameHeader(messageType: .ack, sequence: sequence, timestamp: 1_700_000_100, sessionID: session))
    }

    static let data = CaseFrames.data(1)
    static let sentinel = SequenceNumber(category: .normal, counter: CaseFrames.sentinelCounter + 1)

    static func verdict(_ actions: [ServerCaseAction]) -> Verdict? {
        actions.compactMap { if case let .finish(verdict) = $0 { verdict } else { nil } }.first
    }

    /// Plays the steps of a DATA frame and its ACK expectation up to the wait for the sentinel's ACK.
    static func judgeWaitingForTheSentinel() -> ServerJudge {
        var judge = judge(CaseFrames.acked(data.0, data.1))
        _ = judge.start(at: at(0))
        _ = judge.wrote(at: at(1))
        let waiting = judge.wrote(at: at(2))
        #expect(waiting == [.wait(until: .milliseconds(2002))])
        return judge
    }

    @Test("a DATA frame goes out in the run's session and clock, then a sentinel, then the wait; one ACK each passes")
    func acknowledgedOnce() throws {
        var judge = Self.judge(CaseFrames.acked(Self.data.0, Self.data.1))
        let first = judge.start(at: Self.at(0))
        guard case let .write(bytes, label, pause) = try #require(first.first) else { Issue.record("not a write: \(first)"); return }
        let header = try #require(FrameHeader(decoding: bytes[...]))
        #expect(header.sessionID == Self.session && header.timestamp == 1_700_000_100 && pause == .zero)
        #expect(label == CaseFrames.describe(Self.data.0, Self.data.1))
        guard case let .write(sentinelBytes, _, _) = try #require(judge.wrote(at: Self.at(1)).first) else { Issue.record("no sentinel"); return }
        #expect(FrameHeader(decoding: sentinelBytes[...])?.sequence == Self.sentinel)
        #expect(judge.wrote(at: Self.at(2)) == [.wait(until: .milliseconds(2002))])
        #expect(judge.received(Self.ack(Self.data.0.sequence), at: Self.at(10)) == [])
        #expect(Self.verdict(judge.received(Self.ack(Self.sentinel), at: Self.at(11)))?.kind == .pass)
    }

    @Test("two ACKs of one frame fail EX-1; an ACK that does not echo the session fails SESSION-1")
    func ackCountAndForm() {
        var twice = Self.judgeWaitingForTheSentinel()
        _ = twice.received(Self.ack(Self.data.0.sequence), at: Self.at(10))
        _ = twice.received(Self.ack(Self.data.0.sequence), at: Self.at(11))
        let doubled = Self.verdict(twice.received(Self.ack(Self.sentinel), at: Self.at(12)))
        #expect(doubled?.kind == .fail && doubled?.reason.hasSuffix("2 times") == true && doubled?.actual == "2")
        #expect(doubled?.requirements.contains(.ex1) == true)

        var otherSession = Self.judgeWaitingForTheSentinel()
        _ = otherSession.received(Self.ack(Self.data.0.sequence, session: SessionID(rawValue: 0x444C)), at: Self.at(10))
        let wrongSession = Self.verdict(otherSession.received(Self.ack(Self.sentinel), at: Self.at(11)))
        #expect(wrongSession?.kind == .fail && wrongSession?.requirements == [.session1, .ex1])
    }

    @Test("nothing by the deadline is a timeout; the close is a failure naming the ERROR the target sent before it")
    func silenceAndClose() {
        var silent = Self.judgeWaitingForTheSentinel()
        let timedOut = Self.verdict(silent.deadlinePassed(at: Self.at(2002)))
        #expect(timedOut?.kind == .timeout && timedOut?.reason.hasPrefix("no ACK of") == true)

        var closing = Self.judgeWaitingForTheSentinel()
        let report = ErrorReport(code: ErrorCode.badMagic.rawValue, reason: "not our magic")
        _ = closing.received(Self.frame(CaseFrames.header(.control, 9), [report.field]), at: Self.at(5))
        let closed = Self.verdict(closing.closed(at: Self.at(6)))
        #expect(closed?.kind == .fail && closed?.reason == "the target closed the connection after ERROR 1 BAD_MAGIC: not our magic")
    }

    @Test("what the target sends that breaks the protocol fails the case at once, as a MUST whatever the case's level")
    func violations() throws {
        var stray = Self.judgeWaitingForTheSentinel()
        let strayVerdict = Self.verdict(stray.received(Self.ack(SequenceNumber(category: .normal, counter: 77)), at: Self.at(5)))
        #expect(strayVerdict?.kind == .fail && strayVerdict?.requirements == [.ex1] && strayVerdict?.breaksMust == true)

        var garbled = Self.judgeWaitingForTheSentinel()
        var decoder = FrameDecoder()
        decoder.append([0xDE, 0xAD, 0xBE, 0xEF] + Array(repeating: 0, count: 24))
        let error = try #require(throws: WireError.self) { try decoder.nextFrame() }
        let broken = Self.verdict(garbled.failed(error, at: Self.at(5)))
        #expect(broken?.kind == .fail && broken?.requirements == [error.requirement] && broken?.breaksMust == true)
    }

    @Test("the target's own DATA frame is acknowledged as a client must, and the wait goes on")
    func acknowledgesTheTargetsFrames() throws {
        var judge = Self.judgeWaitingForTheSentinel()
        let pushed = CaseFrames.header(.data, 40, session: Self.session)
        let actions = judge.received(Self.frame(pushed, [TLVField(tag: .text, text: "push")]), at: Self.at(5))
        guard case let .acknowledge(bytes, _) = try #require(actions.first), actions.count == 1 else { Issue.record("no ACK: \(actions)"); return }
        let ack = try #require(FrameHeader(decoding: bytes[...]))
        #expect(ack.messageType == .ack && ack.sequence == pushed.sequence && ack.sessionID == Self.session)
    }

    @Test("a fatal error: the close without an ERROR passes non-strictly (EX-5's SHOULD); an ACK of the refused frame fails")
    func fatal() {
        let steps = [CaseFrames.send(Self.data.0, Self.data.1), .expect(.fatal(.checksumMismatch, exactCode: false))]
        var closesQuietly = Self.judge(steps)
        _ = closesQuietly.start(at: Self.at(0))
        #expect(closesQuietly.wrote(at: Self.at(1)) == [.wait(until: .milliseconds(2001))])
        let quiet = Self.verdict(closesQuietly.closed(at: Self.at(50)))
        #expect(quiet?.kind == .passNonStrict && quiet?.requirements == [.ex5])

        var accepts = Self.judge(steps)
        _ = accepts.start(at: Self.at(0))
        _ = accepts.wrote(at: Self.at(1))
        #expect(Self.verdict(accepts.received(Self.ack(Self.data.0.sequence), at: Self.at(5)))?.reason.contains("acknowledged the frame it must refuse") == true)
    }

    /// Silence where a refusal is due is not always a hang: a target that took an ACK frame (or one
    /// of an undefined type) it must refuse says nothing either. A DATA frame after it tells them
    /// apart: acknowledged, the target took the frame; not, it stopped answering.
    @Test("silence where a refusal is due: a DATA frame after it; its ACK fails the case as a frame taken, nothing at all times out")
    func silenceInsteadOfRefusal() throws {
        let ackFrame = CaseFrames.header(.ack, 1)
        let steps = [CaseFrames.send(ackFrame, []), .expect(.fatal(.checksumMismatch, exactCode: false))]
        func silent() throws -> ServerJudge {
            var judge = Self.judge(steps)
            _ = judge.start(at: Self.at(0))
            _ = judge.wrote(at: Self.at(1))
            let probe = judge.deadlinePassed(at: Self.at(2001))
            guard case let .write(bytes, _, _) = try #require(probe.first) else { Issue.record("no DATA frame after the silence: \(probe)"); return judge }
            #expect(FrameHeader(decoding: bytes[...])?.messageType == .data)
            #expect(judge.wrote(at: Self.at(2002)) == [.wait(until: .milliseconds(4002))])
            return judge
        }
        var took = try silent()
        let taken = Self.verdict(took.received(Self.ack(Self.sentinel), at: Self.at(2010)))
        #expect(taken?.kind == .fail && taken?.reason.hasPrefix("the target took the frame it must refuse") == true, "\(String(describing: taken))")
        var stopped = try silent()
        let hung = Self.verdict(stopped.deadlinePassed(at: Self.at(4002)))
        #expect(hung?.kind == .timeout, "\(String(describing: hung))")
    }

    @Test("a prompt ACK is timed from the write on the case's clock: 300 ms where 100 ms is asked fails EX-7")
    func promptAck() {
        let steps = [CaseFrames.send(Self.data.0, Self.data.1), .expect(.promptAck(Self.data.0.sequence, deadline: .milliseconds(100)))]
        var late = Self.judge(steps)
        _ = late.start(at: Self.at(1000))
        _ = late.wrote(at: Self.at(1001))
        let verdict = Self.verdict(late.received(Self.ack(Self.data.0.sequence), at: Self.at(1300)))
        #expect(verdict?.kind == .fail && verdict?.requirements == [.ex1, .ex7])

        var prompt = Self.judge(steps)
        _ = prompt.start(at: Self.at(1000))
        _ = prompt.wrote(at: Self.at(1001))
        #expect(Self.verdict(prompt.received(Self.ack(Self.data.0.sequence), at: Self.at(1050)))?.kind == .pass)
    }

    @Test("the idle close is judged on the case's clock from the start of the connect, within the timing tolerance")
    func idleClose() {
        let idle = Duration.seconds(2)
        var early = Self.judge([.expect(.idleClose)], idleTimeout: idle)
        #expect(early.start(at: Self.at(0)) == [.wait(until: TimingTolerance.bounds(idle).upperBound)])
        #expect(Self.verdict(early.closed(at: Self.at(500)))?.kind == .fail)

        var onTime = Self.judge([.expect(.idleClose)], idleTimeout: idle)
        _ = onTime.start(at: Self.at(0))
        #expect(Self.verdict(onTime.closed(at: Self.at(2000)))?.kind == .pass)

        var unknown = Self.judge([.expect(.idleClose)])
        #expect(Self.verdict(unknown.start(at: Self.at(0)))?.kind == .unsupported)
    }

    @Test("a write the target stops reading is a timeout saying how much it took; a write to a closed connection leaves the verdict to the expectation")
    func writes() {
        var stalled = Self.judge(CaseFrames.acked(Self.data.0, Self.data.1))
        _ = stalled.start(at: Self.at(0))
        let verdict = Self.verdict(stalled.writeStalled(taken: 10, total: 45, waited: .seconds(2)))
        #expect(verdict?.kind == .timeout && verdict?.reason.hasPrefix("the target stopped reading: it took 10 of the 45 bytes of DATA seq NORMAL/1") == true)

        var refused = Self.judge([CaseFrames.send(Self.data.0, Self.data.1), .expect(.close([.badMagic]))])
        _ = refused.start(at: Self.at(0))
        _ = refused.closed(at: Self.at(1))
        #expect(Self.verdict(refused.writeFailed("connection reset by peer", connectionOpen: false, at: Self.at(2)))?.kind == .pass)

        var broken = Self.judge(CaseFrames.acked(Self.data.0, Self.data.1))
        _ = broken.start(at: Self.at(0))
        #expect(Self.verdict(broken.writeFailed("no buffer space", connectionOpen: true, at: Self.at(1)))?.kind == .harnessError)
    }

    @Test("the end of the stream: a target that closes before it reads the end fails a truncation case")
    func endOfStream() {
        let steps: [ConformanceStep] = [.send(Transmission(label: "header only", bytes: Array(CaseFrames.bytes(Self.data.0, Self.data.1).prefix(28)))),
                                        .endStream, .expect(.close([.truncatedFrame]))]
        var judge = Self.judge(steps)
        _ = judge.start(at: Self.at(0))
        #expect(judge.wrote(at: Self.at(1)) == [.endStream])
        _ = judge.writeFailed("connection reset", connectionOpen: false, at: Self.at(2))
        let verdict = Self.verdict(judge.closed(at: Self.at(3)))
        #expect(verdict?.kind == .fail && verdict?.reason.hasPrefix("the target closed the connection before the stream ended") == true)
    }

    /// A target that does anything, at random: every catalog case must still reach a verdict,
    /// and ask for nothing after it.
    @Test("whatever the target does, every catalog case reaches one verdict and asks for nothing after it", arguments: [1, 2, 3])
    func everyCaseEnds(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var unfinished: [String] = []
        var profile = ConformanceProfile()
        profile.idleTimeout = .seconds(1)
        for testCase in ConformanceCatalog(profile: profile).cases {
            var judge = ServerJudge(testCase: testCase, target: Self.target, timeout: .seconds(2), idleTimeout: .seconds(1), session: Self.session, stampsFrames: true)
            var clock = 0
            var sent: [SequenceNumber] = []
            var actions = judge.start(at: Self.at(clock))
            var verdict: Verdict?
            for _ in 0..<1000 where verdict == nil {
                clock += Int.random(in: 0...300, using: &random)
                guard !actions.isEmpty else { break }
                switch actions.removeFirst() {
                case let .write(bytes, _, _):
                    sent += Transmission.headers(in: bytes).map(\.sequence)
                    switch Int.random(in: 0..<20, using: &random) {
                    case 0: actions += judge.writeStalled(taken: 1, total: bytes.count, waited: .seconds(2))
                    case 1: actions += judge.writeFailed("reset", connectionOpen: false, at: Self.at(clock))
                    default: actions += judge.wrote(at: Self.at(clock))
                    }
                case .acknowledge: break
                case .endStream: actions += judge.wrote(at: Self.at(clock))
                case .wait:
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0: actions += judge.closed(at: Self.at(clock))
                    case 1: actions += judge.deadlinePassed(at: Self.at(clock))
                    case 2: actions += judge.received(Self.frame(CaseFrames.header(.data, UInt32.random(in: 1...9, using: &random), session: Self.session)), at: Self.at(clock))
                    default:
                        let acknowledged = sent.randomElement(using: &random) ?? SequenceNumber(category: .normal, counter: 1)
                        actions += judge.received(Self.ack(acknowledged), at: Self.at(clock))
                    }
                    // The wait goes on until the judge replaces it or decides.
                    if !actions.contains(where: { if case .wait = $0 { true } else if case .finish = $0 { true } else { false } }) {
                        actions.append(.wait(until: .zero))
                    }
                case let .finish(decided):
                    verdict = decided
                }
            }
            guard verdict != nil else {
                unfinished.append(testCase.id)
                continue
            }
            #expect(judge.closed(at: Self.at(clock)) == [] && judge.deadlinePassed(at: Self.at(clock)) == [], "\(testCase.id) asked for more after its verdict")
        }
        #expect(unfinished == [])
    }
}
