import DecafNIO
import DecafWire
import Foundation
import Synchronization

/// How the codec suite runs a case once: one request to the run's testee process, one answer
/// within the timeout, judged by `CodecJudge`. The testee answers one request at a time, so cases
/// run one at a time; each waits on a thread of its own, since a testee is read with blocking reads.
public final class DecoderSuiteDriver: SuiteDriver {
    let timeout: Duration
    package let repeats: Int
    package var jobs: Int { 1 }
    /// The run's one testee, started again after it dies.
    private let testee: Mutex<TesteeProcess>
    /// Set when the run's task is cancelled: the wait for an answer then ends within a tenth of a second.
    private let cancelled = CancellationFlag()
    /// What the testee did besides answering, over the run, and the case asked last.
    private let irregular = Mutex((all: TesteeIrregularities(), lastCase: String?.none))

    /// The longest answer a testee may give under a body limit of `bodyLimit`: a frame whose payload
    /// is at the limit, in hex, with its header: twice the limit and 64 KiB.
    public static func lineLimit(bodyLimit: Int) -> Int {
        2 * bodyLimit + 64 << 10
    }

    /// A driver of `command`, started with `environment` added to the suite's, keeping at most
    /// `lineLimit` bytes of an answer (by default the longest a frame at the brief's body limit needs).
    public init(command: [String], environment: [String: String] = [:], timeout: Duration, repeats: Int = 1,
                lineLimit: Int = lineLimit(bodyLimit: DecodeOptions.defaultBodyLimit)) {
        self.timeout = timeout
        self.repeats = repeats
        testee = Mutex(TesteeProcess(command: command, environment: environment, lineLimit: lineLimit) { [cancelled] in cancelled.isRaised })
    }

    /// What the testee did besides answering, over every request so far.
    public var irregularities: TesteeIrregularities { irregular.withLock { $0.all } }

    public func attempt(_ codecCase: CodecCase, execution: Int = 0) async -> CaseAttempt {
        await attempt(codecCase, waiting: timeout)
    }

    /// Runs `codecCase` once, waiting up to `timeout` for the answer (the fuzzer asks a second
    /// time with a longer wait before it calls a testee hung). `alone` asks a testee started for
    /// this request only, so nothing it wrote for another request can be taken for this answer.
    public func attempt(_ codecCase: CodecCase, waiting timeout: Duration, alone: Bool = false) async -> CaseAttempt {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CaseAttempt, Never>) in
                Thread {
                    continuation.resume(returning: self.testee.withLock { testee in
                        if alone { testee.stop() }
                        defer { if alone { testee.stop() } }
                        return self.runOnce(codecCase, on: testee, timeout: timeout)
                    })
                }.start()
            }
        } onCancel: {
            cancelled.raise()
        }
    }

    /// Stops the testee at the end of the run.
    public func stop() {
        testee.withLock { $0.stop() }
    }

    /// Runs `codecCase` once on `testee`: its result and, when the testee gave no answer a case
    /// can judge, what it did instead.
    private func runOnce(_ codecCase: CodecCase, on testee: TesteeProcess, timeout: Duration) -> CaseAttempt {
        let started = ContinuousClock.now
        let request = TesteeMessage.line(TesteeMessage.request(for: codecCase))
        var transcript = [TranscriptEntry(direction: .sent, time: .zero, bytes: Array(request.utf8), label: "request")]
        let verdict: Verdict
        var unusable: String?
        var cannotStart = false
        var words = ""
        do {
            let answer = try testee.exchange(request, timeout: timeout)
            transcript.append(TranscriptEntry(direction: .reported, time: ContinuousClock.now - started, bytes: Array(answer.utf8), label: "answer"))
            if let response = try? JSONDecoder().decode(TesteeMessage.Response.self, from: Data(answer.utf8)) {
                verdict = CodecJudge(codecCase: codecCase).judge(response)
            } else {
                unusable = "answered with a line that is not the testee protocol's JSON (the last: '\(answer.prefix(80))')"
                verdict = Verdict(.fail, "the testee's answer is not a response of the testee protocol", expected: "one JSON object per line",
                                  actual: String(answer.prefix(200)), requirements: codecCase.vector.requirements)
            }
        } catch {
            let kind: VerdictKind
            switch error {
            case .cannotStart:
                kind = .harnessError
                cannotStart = true
            case let .exited(reason, lastWords):
                kind = .fail
                unusable = "\(reason) before answering"
                words = lastWords
            case .timedOut:
                kind = .timeout
                unusable = "answered no request within \(timeout)"
            }
            verdict = Verdict(kind, "\(error)", expected: "an answer", actual: "\(error)", requirements: codecCase.vector.requirements)
        }
        var irregularities = testee.takeIrregularities()
        irregular.withLock { run in
            if irregularities.unrequestedBytes > 0 {
                irregularities.unrequestedAfter = irregularities.unrequestedBeforeRequest ? run.lastCase : codecCase.id
            }
            run.all.add(irregularities)
            run.lastCase = codecCase.id
        }
        let result = CaseResult(testCase: codecCase.conformanceCase, verdict: verdict, transcript: transcript, duration: ContinuousClock.now - started)
        var attempt = CaseAttempt(result: result, unusable: unusable, lastWords: words, cannotStart: cannotStart)
        attempt.irregularities = irregularities
        return attempt
    }
}
