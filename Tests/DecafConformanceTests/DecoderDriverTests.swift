import DecafConformance
import DecafTestSupport
import DecafVectors
import Foundation
import Testing

/// The decoder driver against the Python reference testee, and against testees that break.
@Suite("decoder driver", .timeLimit(.minutes(2)), .enabled(if: ExternalTool.python3.isInstalled, Comment(rawValue: ExternalTool.python3.skipReason)))
struct DecoderDriverTests {
    static let testee = FixturePaths.root.appending(path: "tools/reference/testee.py").path

    /// Runs `cases`; the timeout, unless the test sets its own, is long enough for starting a
    /// testee (two Python processes here) again on a loaded 2-core machine, since only the hang
    /// test is about time.
    static func run(_ runner: DecoderConformanceRunner, _ cases: [CodecCase]) async throws -> ConformanceRun {
        var runner = runner
        if runner.timeout == DecoderConformanceRunner(command: []).timeout { runner.timeout = .seconds(30) }
        return try await runner.run(cases)
    }

    @Test("the reference testee passes every codec case")
    func referenceTestee() async throws {
        let run = try await Self.run(DecoderConformanceRunner(command: ["python3", Self.testee]), CodecCase.all)
        #expect(run.results.filter { $0.verdict.kind != .pass }.map { "\($0.testCase.id): \($0.verdict.reason)" } == [])
        #expect(run.results.count == CodecCase.all.count)
        #expect(run.results.contains { $0.testCase.id.hasPrefix("codec.encode.") })
        #expect(run.exitStatus == 0)
    }

    @Test("a testee that crashes fails that case, is started again, and the next cases pass")
    func crashingTestee() async throws {
        let cases = Array(CodecCase.all.prefix(6))
        let victim = cases[2].id
        let script = try Self.wrapper(crashingOn: victim)
        let run = try await Self.run(DecoderConformanceRunner(command: ["python3", script]), cases)
        #expect(run.results.map(\.verdict.kind) == [.pass, .pass, .fail, .pass, .pass, .pass])
        #expect(run.results[2].verdict.reason.contains("exited with status 3"))
        #expect(run.exitStatus == 1)
    }

    @Test("a testee that hangs times out that case, is started again, and the run goes on")
    func hangingTestee() async throws {
        let cases = Array(CodecCase.all.prefix(3))
        let script = try Self.wrapper(hangingOn: cases[1].id)
        var runner = DecoderConformanceRunner(command: ["python3", script])
        // Generous: the timeout also covers starting the testee again, on a loaded 2-core machine.
        runner.timeout = .seconds(10)
        let run = try await Self.run(runner, cases)
        #expect(run.results.map(\.verdict.kind) == [.pass, .timeout, .pass])
    }

    @Test("wrong answers fail with what was expected and what came")
    func wrongAnswers() async throws {
        let checksumCase = try #require(CodecCase.all.first { $0.operation == .decode && $0.vector.expectation == .invalid(ExpectedRefusal(.checksumMismatch, at: 24)) })
        let script = try Self.wrapper(answering: #"{"result": "error", "error": "DECOMPRESSION_FAILED", "offset": 28}"#)
        let run = try await Self.run(DecoderConformanceRunner(command: ["python3", script]), [checksumCase])
        let verdict = try #require(run.results.first?.verdict)
        #expect(verdict.kind == .fail)
        #expect(verdict.expected.contains("CHECKSUM_MISMATCH at offset 24"))
        #expect(verdict.actual.contains("DECOMPRESSION_FAILED"))
    }

    @Test("a testee that cannot start stops the run with one reason, quoting what the system said")
    func missingTestee() async {
        let error = await #expect(throws: TesteeUnusable.self) {
            try await Self.run(DecoderConformanceRunner(command: ["/nonexistent/testee"]), Array(CodecCase.all.prefix(5)))
        }
        #expect(error?.description.contains("cannot be started") == true)
        #expect(error?.description.contains("No such file or directory") == true, "\(error?.description ?? "")")
    }

    @Test("a testee that ends before answering its first requests stops the run, quoting its last words")
    func testeeThatNeverAnswers() async {
        let error = await #expect(throws: TesteeUnusable.self) {
            try await Self.run(DecoderConformanceRunner(command: ["python3", "-c", "import sys; print('no such module: codec', file=sys.stderr); sys.exit(2)"]),
                               Array(CodecCase.all.prefix(5)))
        }
        #expect(error?.description.contains("exited with status 2 before answering, in each of its first 3 cases; its standard error ended: no such module: codec") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("its standard error ended: no such module: codec") == true)
    }

    @Test("a testee that crashes on the first case but answers the next is judged, not given up on")
    func crashOnFirstCase() async throws {
        let cases = Array(CodecCase.all.prefix(3))
        let script = try Self.wrapper(crashingOn: cases[0].id)
        let run = try await Self.run(DecoderConformanceRunner(command: ["python3", script]), cases)
        #expect(run.results.map(\.verdict.kind) == [.fail, .pass, .pass])
    }

    @Test("a testee that answers every request twice: each case is judged on its own answer, and one failure of its own says so")
    func answersTwice() async throws {
        let cases = Array(CodecCase.all.prefix(6))
        let run = try await Self.run(DecoderConformanceRunner(command: ["python3", try Self.wrapper(answers: 2)]), cases)
        #expect(run.results.prefix(6).map(\.verdict.kind) == Array(repeating: .pass, count: 6), "\(run.results.map(\.verdict.reason))")
        let own = try #require(run.results.last)
        #expect(run.results.count == 7 && own.testCase.id == "codec.testee-protocol" && own.verdict.kind == .fail)
        #expect(own.verdict.reason.contains("answers some requests more than once"), "\(own.verdict.reason)")
        #expect(run.exitStatus == 1)
    }

    @Test("a testee that exits by itself after every 2 answers: every case is judged, and the exits are told once as its own failure")
    func exitsBetweenRequests() async throws {
        let cases = Array(CodecCase.all.prefix(7))
        let run = try await Self.run(DecoderConformanceRunner(command: ["python3", try Self.wrapper(exitingAfter: 2)]), cases)
        #expect(run.results.prefix(7).map(\.verdict.kind) == Array(repeating: .pass, count: 7), "\(run.results.map(\.verdict.reason))")
        let own = try #require(run.results.last)
        #expect(own.testCase.id == "codec.testee-protocol" && own.verdict.reason.contains("exited by itself 3 times between requests (the first: exited with status 0)"),
                "\(own.verdict.reason)")
    }

    /// A script that runs the reference testee line by line, but exits with status 3 on the
    /// request for `crashingOn`, sleeps on `hangingOn`, answers every request with `answering`,
    /// gives each answer `answers` times, or exits with status 0 after `exitingAfter` answers.
    static func wrapper(crashingOn: String? = nil, hangingOn: String? = nil, answering: String? = nil, answers: Int = 1,
                        exitingAfter: Int = 0) throws -> String {
        let source = """
        import json, subprocess, sys, time
        ref = subprocess.Popen([sys.executable, '\(testee)'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        answered = 0
        for line in sys.stdin:
            case = json.loads(line)['case']
            if case == '\(crashingOn ?? "")': sys.exit(3)
            if case == '\(hangingOn ?? "")': time.sleep(30)
            if \(answering == nil ? "False" : "True"):
                print('\(answering ?? "")', flush=True)
                continue
            ref.stdin.write(line); ref.stdin.flush()
            answer = ref.stdout.readline()
            for _ in range(\(answers)): print(answer, end='', flush=True)
            answered += 1
            if answered == \(exitingAfter): sys.exit(0)
        """
        let url = FileManager.default.temporaryDirectory.appending(path: "decaf-testee-\(UUID().uuidString).py")
        try source.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
