import DecafConformance
import DecafSession
import DecafWire
import Foundation

/// A campaign against a server: mutants of the corpus, each sent after a handshake on a fresh
/// connection (`ServerCase`, some after a DATA frame, some cut into several writes) and judged by
/// the server suite's judge against what the brief makes of it. A server that stops accepting or
/// answering a fresh handshake has crashed; a connection that gets no answer where the brief
/// demands one (asked again with twice the wait) is a hang; an answer that breaks a MUST is a
/// disagreement. Each distinct finding is minimized and handed on at once. With `restart`, a
/// crashed server is started again and the campaign goes on (and a crash can be minimized).
public final class ServerFuzzer: FuzzCampaign {
    private let runner: ServerConformanceRunner
    private let patient: ServerConformanceRunner
    private let corpus: [[UInt8]]
    private let settings: FuzzSettings
    private let restart: ServerRestart?
    public var target: String { "\(runner.settings.host):\(runner.settings.port)" }

    /// `clock` gives the UNIX time the frames are stamped with.
    public init(host: String, port: Int, corpus: [[UInt8]], settings: FuzzSettings, restart: ServerRestart?, clock: @escaping @Sendable () -> UInt32) {
        var profile = ConformanceProfile()
        profile.version = settings.options.version
        profile.bodyLimit = settings.options.bodyLimit
        profile.depthLimit = settings.options.tlv.depthLimit
        var run = ServerRunSettings(host: host, port: port, clock: clock)
        run.timeout = settings.timeout
        runner = ServerConformanceRunner(catalog: ConformanceCatalog(profile: profile), settings: run)
        run.timeout = settings.timeout * 2
        patient = ServerConformanceRunner(catalog: ConformanceCatalog(profile: profile), settings: run)
        self.corpus = corpus
        self.settings = settings
        self.restart = restart
    }

    /// Fuzzes until `settings.runs` inputs, `settings.duration`, `settings.maxFindings`, a crash
    /// without `restart`, or cancellation.
    public func run(progress: (FuzzProgress) -> Void, found: (FuzzFinding) -> Void) async throws(FuzzError) -> FuzzProgress {
        guard !corpus.isEmpty else { throw .emptyCorpus }
        var identity = try await reachable()
        var mutator = FrameMutator(seed: settings.seed, options: settings.options)
        var random = SeededRandom(seed: settings.seed ^ 0x5EED_C0DE)
        var state = FuzzProgress()
        var signatures = Set<String>()
        var answers = Set<String>()
        let start = ContinuousClock.now
        var shown = start
        while !Task.isCancelled {
            state.elapsed = ContinuousClock.now - start
            if settings.isOver(state) { break }
            let entry = corpus[Int.random(in: 0..<corpus.count, using: &random)]
            let donor = corpus[Int.random(in: 0..<corpus.count, using: &random)]
            let (bytes, mutations) = mutator.mutate(entry, donor: donor)
            let plan = ServerCase.Plan.random(for: bytes, using: &random)
            guard let serverCase = ServerCase.make(bytes, options: settings.options, number: state.inputs + 1, plan: plan) else { continue }
            state.inputs += 1
            let attempt = await runner.attempt(serverCase, target: identity, execution: state.inputs)
            if Task.isCancelled { break }
            answers.insert(Self.answer(of: attempt))
            state.distinctAnswers = answers.count
            if let (oracle, signature) = await classify(attempt, of: serverCase, identity: identity) {
                let isNew = signatures.insert(signature).inserted
                let lastWords = oracle == .crash ? restart?.lastWords ?? "" : ""
                if oracle == .crash && restart == nil {
                    if isNew {
                        state.findings += 1
                        found(finding(bytes, plan: plan, oracle: oracle, signature: signature, mutations: mutations, attempt: attempt, lastWords: lastWords,
                                      before: state.inputs - 1, elapsed: ContinuousClock.now - start, original: bytes))
                    }
                    state.stoppedBy = "the server died, and without --restart it cannot be started again"
                    break
                }
                if oracle == .crash { identity = try await reachable() }
                if isNew {
                    let finding = await minimized(bytes, plan: plan, oracle: oracle, signature: signature, mutations: mutations, identity: identity,
                                                  lastWords: lastWords, before: state.inputs - 1, elapsed: ContinuousClock.now - start, first: attempt)
                    if oracle == .crash { identity = try await reachable() }
                    state.findings += 1
                    found(finding)
                }
            }
            if ContinuousClock.now - shown >= .milliseconds(250) {
                shown = ContinuousClock.now
                state.elapsed = shown - start
                progress(state)
            }
        }
        state.elapsed = ContinuousClock.now - start
        state.interrupted = Task.isCancelled
        return state
    }

    /// Sends `bytes` once as `plan` says: the verdict, and the oracle and signature that fire.
    public func judge(_ bytes: [UInt8], plan: ServerCase.Plan) async throws(FuzzError) -> (attempt: CaseAttempt, fired: (FuzzOracle, String)?)? {
        let identity = try await reachable()
        guard let serverCase = ServerCase.make(bytes, options: settings.options, number: 1, plan: plan) else { return nil }
        let attempt = await runner.attempt(serverCase, target: identity, execution: 1)
        return (attempt, await classify(attempt, of: serverCase, identity: identity))
    }

    /// Stops the server `restart` started.
    public func stop() {
        restart?.stop()
    }

    /// The server's identity from a fresh handshake; with `restart`, the server is started (again)
    /// when it does not answer, and given ten seconds to.
    private func reachable() async throws(FuzzError) -> TargetIdentity {
        do throws(TargetProblem) {
            return try await runner.identify()
        } catch {
            guard let restart else { throw .cannotStart(error.reason) }
            try restart.restart()
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, !Task.isCancelled {
                if let identity = try? await runner.identify() { return identity }
                try? await Task.sleep(for: .milliseconds(100))
            }
            throw .cannotStart("--restart \(restart.command) did not bring \(target) back within 10 s: \(restart.lastWords)")
        }
    }

    /// Whether a fresh handshake still gets its answer, asked again with twice the wait before the
    /// server is called dead: a loaded machine can make a live server late once.
    private func alive() async -> Bool {
        if (try? await runner.identify()) != nil { return true }
        return (try? await patient.identify()) != nil
    }

    /// Which oracle an attempt fires, and what makes it this fault: nothing for a pass, a case the
    /// brief leaves open, or a failure of a case that is not a MUST.
    private func classify(_ attempt: CaseAttempt, of serverCase: ConformanceCase, identity: TargetIdentity) async -> (FuzzOracle, String)? {
        let verdict = attempt.result.verdict
        guard !verdict.kind.isPass, verdict.kind != .unsupported else { return nil }
        if await !alive() { return (.crash, "crash: the server stopped answering a fresh handshake") }
        switch verdict.kind {
        case .timeout:
            let again = await patient.attempt(serverCase, target: identity, execution: 0)
            return again.result.verdict.kind == .timeout ? (.hang, "hang") : nil
        case .fail where serverCase.level == .required:
            let reason = String(verdict.reason.map { $0.isNumber ? "#" : $0 })
            return (.disagreement, "\(reason); \(serverCase.steps.last.map { "\($0)" } ?? "")")
        default:
            return nil
        }
    }

    /// The finding of `bytes`, shrunk while the same oracle fires with the same signature, within
    /// the settings' budget of tries (fewer for a crash, where each try that fires costs a restart).
    private func minimized(_ bytes: [UInt8], plan: ServerCase.Plan, oracle: FuzzOracle, signature: String, mutations: [FrameMutation],
                           identity: TargetIdentity, lastWords: String, before: Int, elapsed: Duration, first: CaseAttempt) async -> FuzzFinding {
        var tries = 0
        var current = identity
        var last = (bytes: bytes, attempt: first)
        let budget = oracle == .crash ? min(settings.minimizingBudget, 60) : settings.minimizingBudget
        let deadline = ContinuousClock.now + settings.minimizingTime
        let shrunk = await Minimizer.minimizeFrames([bytes]) { frames in
            guard frames.count == 1, tries < budget, ContinuousClock.now < deadline, !Task.isCancelled,
                  let serverCase = ServerCase.make(frames[0], options: settings.options, number: 0, plan: plan) else { return false }
            tries += 1
            let attempt = await runner.attempt(serverCase, target: current, execution: tries)
            let fired = await classify(attempt, of: serverCase, identity: current)
            if oracle == .crash, fired?.0 == .crash, let identity = try? await reachable() { current = identity }
            guard fired?.1 == signature else { return false }
            last = (frames[0], attempt)
            return true
        }
        let input = shrunk.first == last.bytes ? last.bytes : bytes
        let attempt = input == last.bytes ? last.attempt : first
        return finding(input, plan: plan, oracle: oracle, signature: signature, mutations: mutations, attempt: attempt, lastWords: lastWords,
                       before: before, elapsed: elapsed, original: bytes)
    }

    private func finding(_ input: [UInt8], plan: ServerCase.Plan, oracle: FuzzOracle, signature: String, mutations: [FrameMutation], attempt: CaseAttempt,
                         lastWords: String, before: Int, elapsed: Duration, original: [UInt8]) -> FuzzFinding {
        var verdict = attempt.result.verdict
        // A server that dies or leaves a connection unanswered breaks EX-5 whatever the input asked.
        if oracle != .disagreement { verdict.requirements = [.ex5] }
        var finding = FuzzFinding(oracle: oracle, signature: signature, input: input, original: original, mutations: mutations,
                                  outcome: DecodeOutcome(of: input, options: settings.options), verdict: verdict,
                                  lastWords: lastWords, inputsBefore: before, elapsed: elapsed)
        finding.target = .server(plan)
        return finding
    }

    /// The kind of answer an attempt got: the types of the frames the server sent after the input
    /// (an ERROR with its code), and the verdict's kind.
    static func answer(of attempt: CaseAttempt) -> String {
        let transcript = attempt.result.transcript
        let input = transcript.lastIndex { $0.direction == .sent && $0.label?.hasPrefix("vector ") == true } ?? transcript.endIndex
        var decoder = FrameDecoder()
        for entry in transcript[input...] where entry.direction == .received { decoder.append(entry.bytes) }
        var frames: [String] = []
        while let frame = try? decoder.nextFrame() {
            let error = frame.fields.lazy.compactMap { if case let .error(report) = $0.interpreted { report.code } else { nil } }.first
            frames.append(error.map { "ERROR \($0)" } ?? frame.header.messageType.description)
        }
        return attempt.result.verdict.kind.rawValue + ": " + (frames.isEmpty ? "nothing" : frames.joined(separator: ","))
    }
}
