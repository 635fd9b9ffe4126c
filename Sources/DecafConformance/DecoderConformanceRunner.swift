import DecafDissect
import DecafNIO
import DecafVectors
import DecafWire
import Foundation
import NIOConcurrencyHelpers

/// Runs codec cases against a testee process (`decaf conform decoder -- COMMAND`): each request
/// carries a case's bytes to decode or fields to encode; each answer is judged against the vector.
/// A testee that crashes or hangs fails that case and is started again for the next.
public struct DecoderConformanceRunner: Sendable {
    public let command: [String]
    /// The longest wait for one answer.
    public var timeout: Duration = .seconds(5)
    public var repeats = 1

    public init(command: [String]) {
        self.command = command
    }

    /// Runs `cases` in order, on a thread of its own (a testee is waited for with blocking reads).
    /// Throws when the testee is not usable at all: it cannot be started, or it ends before
    /// answering each of the first `attemptsBeforeGivingUp` requests; then no verdict would say
    /// anything about the codec. Stops early, keeping the verdicts reached, when the task is
    /// cancelled: a testee's answer awaited then is given up within a tenth of a second.
    public func run(_ cases: [CodecCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async throws(TesteeUnusable) -> ConformanceRun {
        let cancelled = NIOLockedValueBox(false)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ConformanceRun, TesteeUnusable>, Never>) in
                Thread {
                    continuation.resume(returning: Result { () throws(TesteeUnusable) in
                        try runBlocking(cases, progress: progress) { cancelled.withLockedValue { $0 } }
                    })
                }.start()
            }
        } onCancel: {
            cancelled.withLockedValue { $0 = true }
        }
        return try outcome.get()
    }

    private func runBlocking(_ cases: [CodecCase], progress: (CaseResult, Int, Int) -> Void, isCancelled: @escaping () -> Bool) throws(TesteeUnusable) -> ConformanceRun {
        let started = ContinuousClock.now
        let testee = TesteeProcess(command: command, isCancelled: isCancelled)
        defer { testee.stop() }
        var results: [CaseResult] = []
        var answered = false
        var failuresBeforeAnswer = 0
        for (index, codecCase) in cases.enumerated() {
            let runs = (0..<max(1, repeats)).map { _ in runOnce(codecCase, on: testee) }
            // A case cut short by the interruption reached no verdict.
            if isCancelled() { break }
            for run in runs where !answered {
                // Until a first real answer, every request that gets none counts towards giving up.
                let why: String
                var lastWords = ""
                switch run.failure {
                case nil:
                    guard let garbled = run.garbled else {
                        answered = true
                        continue
                    }
                    why = "answered each of its first \(failuresBeforeAnswer + 1) requests with a line that is not the testee protocol's JSON (the last: '\(garbled.prefix(80))')"
                case let .cannotStart(reason): throw TesteeUnusable(command: command, reason: "cannot be started: \(reason)")
                case let .exited(reason, words):
                    why = "\(reason) before answering any of its first \(failuresBeforeAnswer + 1) requests"
                    lastWords = words
                case .timedOut: why = "answered none of its first \(failuresBeforeAnswer + 1) requests within \(timeout) each"
                }
                failuresBeforeAnswer += 1
                if failuresBeforeAnswer == Self.attemptsBeforeGivingUp || failuresBeforeAnswer == cases.count * max(1, repeats) {
                    throw TesteeUnusable(command: command, reason: why + TesteeProcess.Failure.quoting(lastWords))
                }
            }
            let result = CaseResult.merging(runs.map(\.result))
            results.append(result)
            progress(result, index + 1, cases.count)
        }
        return ConformanceRun(kind: .decoder, target: command.joined(separator: " "), identity: nil, catalogChecksum: CodecCase.checksum,
                              results: results, duration: ContinuousClock.now - started, planned: cases.count,
                              stop: results.count < cases.count ? .interrupted : nil)
    }

    /// Requests a testee may fail (no answer, a crash, an answer that is not JSON) before it has
    /// answered one, before the run gives up on it.
    static let attemptsBeforeGivingUp = 3

    /// Runs `codecCase` once: its result, why the testee gave no answer, and an answer that was not
    /// a response of the protocol.
    private func runOnce(_ codecCase: CodecCase, on testee: TesteeProcess) -> (result: CaseResult, failure: TesteeProcess.Failure?, garbled: String?) {
        let started = ContinuousClock.now
        let request = TesteeMessage.line(TesteeMessage.request(for: codecCase))
        var transcript = [TranscriptEntry(direction: .sent, time: .zero, bytes: Array(request.utf8), label: "request")]
        let verdict: Verdict
        var failure: TesteeProcess.Failure?
        var garbled: String?
        do {
            let answer = try testee.exchange(request, timeout: timeout)
            transcript.append(TranscriptEntry(direction: .reported, time: ContinuousClock.now - started, bytes: Array(answer.utf8), label: "answer"))
            if let response = try? JSONDecoder().decode(TesteeMessage.Response.self, from: Data(answer.utf8)) {
                verdict = CodecJudge(codecCase: codecCase).judge(response)
            } else {
                garbled = answer
                verdict = Verdict(.fail, "the testee's answer is not a response of the testee protocol", expected: "one JSON object per line",
                                  actual: String(answer.prefix(200)), requirements: codecCase.vector.requirements)
            }
        } catch {
            failure = error
            let kind: VerdictKind = if case .cannotStart = error { .harnessError } else if case .timedOut = error { .timeout } else { .fail }
            verdict = Verdict(kind, "\(error)", expected: "an answer", actual: "\(error)", requirements: codecCase.vector.requirements)
        }
        let result = CaseResult(testCase: codecCase.conformanceCase, verdict: verdict, transcript: transcript, duration: ContinuousClock.now - started)
        return (result, failure, garbled)
    }
}

/// A testee that never answered, or never did anything a case could judge: the run stops, since no
/// verdict would be about the implementation.
public struct TesteeUnusable: Error, CustomStringConvertible {
    public let command: [String]
    public let reason: String
    /// The protocol the testee should speak, to try it by hand.
    public var protocolFile = "Specs/conform-testee.md"

    public var description: String {
        "the testee `\(command.joined(separator: " "))` \(reason); check the command after --, and try it by hand as \(protocolFile) describes"
    }
}

/// Judges a testee's answer to a codec case against its vector.
struct CodecJudge {
    let codecCase: CodecCase

    func judge(_ response: TesteeMessage.Response) -> Verdict {
        let vector = codecCase.vector
        let requirements = vector.requirements
        if response.result == "skipped" {
            return Verdict(.unsupported, "the testee skipped the case: \(response.reason ?? "no reason given")", requirements: requirements)
        }
        if case let .encode(frame) = codecCase.task { return judgeEncoding(response, of: frame) }
        switch (response.result, vector.expectation) {
        case let ("frame", .valid(frame)):
            return judgeFrame(response, against: frame)
        case let ("frame", .acceptable(frame, _)):
            return judgeFrame(response, against: frame, accepting: "the testee accepted a frame the spec lets a receiver accept or refuse, and decoded it exactly")
        case let ("frame", .invalid(refusal)):
            return Verdict(.fail, "the testee accepted a frame it must refuse", expected: refusal.description, actual: "a frame", requirements: requirements)
        case ("error", .valid):
            return Verdict(.fail, "the testee refused a valid frame", expected: "the frame",
                           actual: "\(response.error ?? "?") at offset \(response.offset ?? -1)", requirements: requirements)
        case let ("error", .invalid(refusal)), let ("error", .acceptable(_, refusal)):
            let actual = "\(response.error ?? "?") at offset \(response.offset.map(String.init) ?? "?")"
            guard response.error == refusal.error.name else {
                return Verdict(.fail, "the testee reported another error than the spec's order of checks gives", expected: refusal.description, actual: actual, requirements: requirements)
            }
            guard response.offset == refusal.offset else {
                return Verdict(.fail, "the testee reported the right error at the wrong offset (section 8 gives the offsets)", expected: refusal.description, actual: actual, requirements: requirements)
            }
            return Verdict(.pass, "the testee refused the frame with the right error and offset", requirements: requirements)
        default:
            return Verdict(.fail, "the testee answered '\(response.result)', which the protocol does not define for a decode request",
                           expected: "frame, error or skipped", actual: response.result, requirements: requirements)
        }
    }

    private func judgeFrame(_ response: TesteeMessage.Response, against expected: ExpectedFrame,
                            accepting passing: String = "the testee decoded the frame exactly") -> Verdict {
        let requirements = codecCase.vector.requirements
        guard let header = response.header, header.frameHeader == expected.header, header.sequenceCategory == expected.header.sequence.category.rawValue,
              header.sequenceCounter == expected.header.sequence.counter else {
            return Verdict(.fail, "the decoded header differs from the vector's", expected: JSONLine.encode(FrameHeaderJSON(expected.header)),
                           actual: response.header.map(JSONLine.encode) ?? "no header", requirements: requirements)
        }
        guard response.payload.flatMap(Hex.bytes) == expected.payload else {
            return Verdict(.fail, "the decoded payload differs from the vector's", expected: Hex.string(expected.payload), actual: response.payload ?? "none",
                           requirements: requirements)
        }
        return Verdict(.pass, passing, requirements: requirements)
    }

    private func judgeEncoding(_ response: TesteeMessage.Response, of expected: ExpectedFrame) -> Verdict {
        let vector = codecCase.vector
        let requirements = vector.requirements
        guard response.result == "bytes", let bytes = response.hex.flatMap(Hex.bytes) else {
            return Verdict(.fail, "the testee gave no bytes for an encode request", expected: "bytes", actual: response.result, requirements: requirements)
        }
        if expected.header.compressType == .none {
            if bytes == vector.bytes { return Verdict(.pass, "the testee encoded the frame byte for byte", requirements: requirements) }
            return Verdict(.fail, "the encoded frame differs from the vector's bytes", expected: Hex.string(vector.bytes), actual: Hex.string(bytes),
                           requirements: requirements + [.crc1])
        }
        var decoder = FrameDecoder(options: codecCase.options)
        decoder.append(bytes)
        do {
            guard let frame = try decoder.nextFrame() else {
                return Verdict(.fail, "the encoded bytes are not a whole frame", expected: "one frame", actual: Hex.string(bytes), requirements: requirements + [.frame3])
            }
            var header = frame.header
            header.bodyLength = expected.header.bodyLength
            header.checksum = expected.header.checksum
            guard header == expected.header, Array(frame.payload) == expected.payload else {
                return Verdict(.fail, "the encoded frame decodes to other fields or another payload", expected: Hex.string(expected.payload),
                               actual: Hex.string(frame.payload), requirements: requirements)
            }
            return Verdict(.pass, "the testee's zlib frame decodes to the vector's header and payload", requirements: requirements)
        } catch {
            return Verdict(.fail, "the encoded frame breaks the protocol: \(error)", expected: "a valid frame", actual: error.description,
                           requirements: requirements + [error.requirement])
        }
    }
}
