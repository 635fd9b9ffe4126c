import DecafConformance
import DecafSession
import DecafWire
import Foundation
import Synchronization

/// A campaign against a server: mutants of the corpus, each sent after a handshake on a fresh
/// connection (`ServerCase`, some after a DATA frame, some cut into several writes) and judged by
/// the server suite's judge against what the brief makes of it. A server that stops accepting or
/// answering a fresh handshake has crashed; a connection that gets no answer where the brief
/// demands one (asked again with twice the wait) is a hang; an answer that breaks a MUST is a
/// disagreement. Each distinct finding is minimized and handed on at once. With `restart`, a
/// crashed server is started again and the campaign goes on (and a crash can be minimized). With
/// `settings.coverage`, the server `restart` starts is given a coverage map (AFL++'s, as the
/// decoder fuzzer gives a testee): cleared before each input, read once it is judged.
public final class ServerFuzzer: FuzzCampaign {
    private let runner: ServerConformanceRunner
    private let patient: ServerConformanceRunner
    private let corpus: [[UInt8]]
    private let settings: FuzzSettings
    private let restart: ServerRestart?
    /// With `--coverage`, the map the server is started with: one for the server, so its inputs
    /// go one at a time (`coverageTakesOneJob`).
    private let map: AFLSharedMemory?
    /// Names the defect a failure is, so findings are one per cause.
    private let diagnosis: FindingDiagnosis<ServerFuzzCase>?
    /// The server's identity from its last fresh handshake, which every case is judged against.
    private let identity = Mutex<TargetIdentity?>(nil)
    /// The verdict on the plain frame of each control signature (`control(_:)`): what its finding says.
    private let controls = Mutex<[String: Verdict]>([:])
    /// The connections opened so far: each opens a session of its own (`nextExecution`).
    private let executions = Atomic<Int>(0)
    public var target: String { "\(runner.settings.host):\(runner.settings.port)" }

    /// `clock` gives the UNIX time the frames are stamped with; `diagnosis` names the defect of a
    /// failure, when its catalog has one that gives it. With `settings.coverage`, `restart` starts
    /// the server from the first input on with a coverage map of the size its command says it
    /// needs (`AFLSharedMemory.mapSize(of:)`); throws without `restart`, with more than one job,
    /// or when there is no shared memory for the map.
    public init(host: String, port: Int, corpus: [[UInt8]], settings: FuzzSettings, restart: ServerRestart?, diagnosis: FindingDiagnosis<ServerFuzzCase>? = nil,
                clock: @escaping @Sendable () -> UInt32) throws(FuzzError) {
        if settings.coverage {
            guard let restart else { throw .cannotStart(Self.coverageNeedsRestart) }
            guard settings.jobs == 1 else { throw .cannotStart(Self.coverageTakesOneJob) }
            // A server that is not instrumented runs until stopped: it is given a few seconds to say its size.
            let size = AFLSharedMemory.mapSize(of: ["/bin/sh", "-c", "exec " + restart.command], limit: .seconds(3)) ?? AFLSharedMemory.defaultSize
            map = try AFLSharedMemory(size: size)
        } else {
            map = nil
        }
        let profile = Self.profile(for: settings)
        var run = ServerRunSettings(host: host, port: port, clock: clock)
        run.timeout = settings.timeout
        // The runners run the fuzzer's own cases: the catalog's would only cost time to build.
        let catalog = ConformanceCatalog.empty(profile: profile)
        runner = ServerConformanceRunner(catalog: catalog, settings: run)
        run.timeout = settings.timeout * 2
        patient = ServerConformanceRunner(catalog: catalog, settings: run)
        self.corpus = corpus
        self.settings = settings
        self.restart = restart
        self.diagnosis = diagnosis
    }

    /// The profile a campaign with `settings` judges its cases with: the decode options' version and limits.
    public static func profile(for settings: FuzzSettings) -> ConformanceProfile {
        var profile = ConformanceProfile()
        profile.version = settings.options.version
        profile.bodyLimit = settings.options.bodyLimit
        profile.depthLimit = settings.options.tlv.depthLimit
        profile.allowsDuplicateTags = settings.options.tlv.allowsDuplicateTags
        return profile
    }

    /// Fuzzes until `settings.runs` inputs, `settings.duration`, `settings.maxFindings`, a crash
    /// without `restart`, or cancellation. With several jobs, inputs go on connections side by
    /// side; a crash among them is laid at an input's door only when it crashes the server again
    /// alone, and the inputs asked beside it are asked again once the server is back.
    public func run(progress: (FuzzProgress) -> Void, found: (FuzzFinding) -> Void) async throws(FuzzError) -> FuzzProgress {
        var start = FuzzProgress()
        if let map, let restart {
            let fresh = try await started(restart)
            identity.withLock { $0 = fresh }
            if map.trace().isEmpty { start.note = Self.notInstrumented }
        } else {
            try await refresh()
        }
        let map = start.note == nil ? map : nil
        var signatures = Set<String>()
        let options = settings.options
        let stoppedByCrash = "the server died, and without --restart it cannot be started again"
            + (settings.jobs > 1 ? " (nor the input be told from the others sent beside it)" : "")
        // The input asked before the one being handled: a server can die of an input after
        // answering it, and show it only at the next.
        var previous: FuzzLoop<ServerInput>.Input?
        return try await FuzzLoop<ServerInput>(corpus: corpus, settings: settings).run(
            make: { bytes, number, random in
                let plan = ServerCase.Plan.random(for: bytes, using: &random)
                return ServerCase.make(bytes, options: options, number: number, plan: plan).map { ServerInput(conformanceCase: $0, plan: plan) }
            },
            attempt: { [self] input, _ in
                map?.clear()
                return await runner.attempt(input.conformanceCase, target: current, execution: nextExecution())
            },
            handle: { input, attempt, state, start throws(FuzzError) in
                let before = previous
                previous = input
                guard !Task.isCancelled, var (oracle, signature) = await classify(attempt, of: input.testCase.conformanceCase, plan: input.testCase.plan) else { return .undisturbed }
                var aftermath = FuzzLoop<ServerInput>.Aftermath.undisturbed
                var (input, attempt) = (input, attempt)
                if oracle == .crash, restart != nil {
                    // Another input may have killed the server: one asked beside this one, or the
                    // one before it, answered before the server died. This one is asked again,
                    // alone, once the server is back; if it does not kill it, the one before it is.
                    try await refresh()
                    aftermath = .restarted
                    var crash = await crashes(input.testCase)
                    if crash == nil, let before {
                        try await refresh()
                        crash = await crashes(before.testCase)
                        input = before
                    }
                    guard let crash else { return aftermath }
                    (attempt, (oracle, signature)) = crash
                }
                let isNew = signatures.insert(signature).inserted
                if !isNew { state.repeats[signature, default: 0] += 1 }
                let lastWords = oracle == .crash ? restart?.lastWords ?? "" : ""
                if oracle == .crash && restart == nil {
                    if isNew {
                        state.findings += 1
                        found(finding(input.bytes, plan: input.testCase.plan, oracle: oracle, signature: signature, mutations: input.mutations, attempt: attempt,
                                      lastWords: lastWords, before: input.number - 1, elapsed: ContinuousClock.now - start, original: input.bytes))
                    }
                    state.stoppedBy = stoppedByCrash
                    return aftermath
                }
                if oracle == .crash {
                    try await refresh()
                    aftermath = .restarted
                }
                guard isNew else { return aftermath }
                let finding = await minimized(input.bytes, plan: input.testCase.plan, oracle: oracle, signature: signature, mutations: input.mutations,
                                              lastWords: lastWords, before: input.number - 1, elapsed: ContinuousClock.now - start, first: attempt)
                if oracle == .crash { try await refresh() }
                state.findings += 1
                found(finding)
                return aftermath
            },
            answer: Self.answer, traces: map.map { map in { _ in map.trace() } }, coverage: map.map { CoverageMap(size: $0.size) },
            sync: try settings.syncDirectory(), from: start, progress: progress)
    }

    /// What `--coverage` says without `--restart`, and with `--jobs`.
    static let coverageNeedsRestart = "--coverage needs --restart COMMAND: Decaf starts the server itself, to hand it the coverage map (__AFL_SHM_ID)"
    static let coverageTakesOneJob = "--coverage asks a server one input at a time (the server has one coverage map, which inputs side by side would share); leave out --jobs"

    /// What `--coverage` says of a server whose handshake hit no edge of its map.
    static let notInstrumented = "--coverage: the server's handshake reached no edge of the coverage map, so the server --restart started is not "
        + "instrumented by AFL++ (or another one answers on its port); fuzzing without coverage. Build it with afl-clang-fast (AFL++: "
        + "sudo make deps, or apt install afl++), e.g. make server-c CC=afl-clang-fast"

    /// The crash `input` sets off when sent once more, alone, if it does: the attempt, and the oracle and signature.
    private func crashes(_ input: ServerInput) async -> (CaseAttempt, (FuzzOracle, String))? {
        let again = await runner.attempt(input.conformanceCase, target: current, execution: nextExecution())
        guard let fired = await classify(again, of: input.conformanceCase, plan: input.plan), fired.0 == .crash else { return nil }
        return (again, fired)
    }

    /// Sends `bytes` once as `plan` says: the verdict, and the oracle and signature that fire.
    public func judge(_ bytes: [UInt8], plan: ServerCase.Plan) async throws(FuzzError) -> (attempt: CaseAttempt, fired: (FuzzOracle, String)?)? {
        try await refresh()
        guard let serverCase = ServerCase.make(bytes, options: settings.options, number: 1, plan: plan) else { return nil }
        let attempt = await runner.attempt(serverCase, target: current, execution: nextExecution())
        return (attempt, await classify(attempt, of: serverCase, plan: plan))
    }

    public func explained(_ findings: [FuzzFinding]) -> [FuzzFinding] {
        guard let diagnosis else { return findings }
        return findings.map { finding in
            guard finding.defects.isEmpty, finding.oracle != .crash, case let .server(plan) = finding.target,
                  let serverCase = ServerCase.make(finding.input, options: settings.options, number: 0, plan: plan) else { return finding }
            var explained = finding
            explained.defects = diagnosis.namedCause(of: finding.verdict, for: ServerFuzzCase(conformanceCase: serverCase, identity: current))
            return explained
        }
    }

    /// Stops the server `restart` started.
    public func stop() {
        restart?.stop()
    }

    /// A number no connection of the campaign had: its session is its own, so no two handshakes
    /// in one second are one repeated (a server may remember CONTROL frames per session,
    /// interpretation 15; sessions come round again after 65,535 connections).
    private func nextExecution() -> Int {
        executions.add(1, ordering: .relaxed).newValue
    }

    /// The identity the cases are judged against: the last fresh handshake's.
    private var current: TargetIdentity {
        identity.withLock { $0 } ?? TargetIdentity(version: settings.options.version, features: .known, note: "")
    }

    /// Takes the server's identity from a fresh handshake, starting the server as `reachable` does.
    private func refresh() async throws(FuzzError) {
        let fresh = try await reachable()
        identity.withLock { $0 = fresh }
    }

    /// The server's identity from a fresh handshake; with `restart`, the server is started (again)
    /// when it does not answer, and given ten seconds to.
    private func reachable() async throws(FuzzError) -> TargetIdentity {
        do throws(TargetProblem) {
            return try await runner.identify(execution: nextExecution())
        } catch {
            guard let restart else { throw .cannotStart(error.reason) }
            return try await started(restart)
        }
    }

    /// The identity of the server `restart` starts (again), with the coverage map when there is
    /// one, once it answers a fresh handshake; it is given ten seconds to.
    private func started(_ restart: ServerRestart) async throws(FuzzError) -> TargetIdentity {
        try restart.restart(adding: map?.environment ?? [:])
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !Task.isCancelled {
            if let identity = try? await runner.identify(execution: nextExecution()) { return identity }
            try? await Task.sleep(for: .milliseconds(100))
        }
        throw .cannotStart("--restart \(restart.command) did not bring \(target) back within 10 s: \(restart.lastWords)")
    }

    /// Whether a fresh handshake still gets its answer, asked again with twice the wait before the
    /// server is called dead: a loaded machine can make a live server late once.
    private func alive() async -> Bool {
        if (try? await runner.identify(execution: nextExecution())) != nil { return true }
        return (try? await patient.identify(execution: nextExecution())) != nil
    }

    /// Which oracle an attempt fires, and what makes it this fault: nothing for a pass, a case the
    /// brief leaves open, or a failure of a case that is not a MUST. A failure the server also
    /// gives a plain DATA frame sent the same way (`control`) is not the input's: its signature is
    /// the control's, so a server that closes every connection after its first frame is one
    /// finding, not one per input.
    /// Nothing is concluded from a wait the campaign's end or an interruption cut short.
    private func classify(_ attempt: CaseAttempt, of serverCase: ConformanceCase, plan: ServerCase.Plan) async -> (FuzzOracle, String)? {
        let verdict = attempt.result.verdict
        guard verdict.kind != .pass, verdict.kind != .unsupported, !Task.isCancelled else { return nil }
        // A refusal by a close without an ERROR passes non-strictly (the ERROR is a SHOULD), and
        // is how a server that died of the input looks too: it is asked whether it lives on.
        let alive = await alive()
        guard !Task.isCancelled else { return nil }
        if !alive { return (.crash, "crash: the server stopped answering a fresh handshake") }
        guard !verdict.kind.isPass else { return nil }
        let fired: (FuzzOracle, String)?
        switch verdict.kind {
        case .timeout:
            let again = await patient.attempt(serverCase, target: current, execution: nextExecution())
            guard again.result.verdict.kind == .timeout, !Task.isCancelled else { return nil }
            fired = await control(plan) ?? (.hang, diagnosed("hang", verdict, in: serverCase))
        case .fail where serverCase.level == .required:
            fired = await control(plan) ?? (.disagreement, diagnosed("\(FaultSignature.masked(verdict.reason)); \(serverCase.steps.last.map { "\($0)" } ?? "")",
                                                                     verdict, in: serverCase))
        default:
            fired = nil
        }
        return Task.isCancelled ? nil : fired
    }

    /// What the server does with a plain DATA frame (`ProbeFrame`) sent as `plan` sends an input,
    /// when that fails too: the oracle and signature of that failure, which no input caused.
    private func control(_ plan: ServerCase.Plan) async -> (FuzzOracle, String)? {
        let plain = ServerCase.Plan(split: [], dataFirst: plan.dataFirst)
        guard let probe = ServerCase.make(ProbeFrame.bytes, options: settings.options, number: 0, plan: plain) else { return nil }
        let verdict = await patient.attempt(probe, target: current, execution: nextExecution()).result.verdict
        guard !verdict.kind.isPass, verdict.kind != .unsupported, verdict.kind != .harnessError else { return nil }
        let signature = diagnosed("not the input's: a plain DATA frame fails too: \(FaultSignature.masked(verdict.reason))", verdict, in: probe)
        let opening = plan.dataFirst ? "after the handshake and a DATA frame" : "after the handshake"
        var told = verdict
        told.reason = "not caused by the input: a plain DATA frame sent \(opening) fails the same way (\(verdict.reason))"
        told.expected = ""
        told.actual = ""
        controls.withLock { $0[signature] = $0[signature] ?? told }
        return (verdict.kind == .timeout ? .hang : .disagreement, signature)
    }

    /// "defect NAME" when catalogued mistakes' model gives `verdict` on `serverCase`; else `signature`.
    private func diagnosed(_ signature: String, _ verdict: Verdict, in serverCase: ConformanceCase) -> String {
        let cause = diagnosis?.cause(of: verdict, for: ServerFuzzCase(conformanceCase: serverCase, identity: current), signature: signature) ?? []
        return cause.isEmpty ? signature : FuzzFinding.signature(of: cause)
    }

    /// The finding of `bytes`, shrunk while the same oracle fires with the same signature, within
    /// the settings' budget of tries (fewer for a crash, where each try that fires costs a restart).
    private func minimized(_ bytes: [UInt8], plan: ServerCase.Plan, oracle: FuzzOracle, signature: String, mutations: [FrameMutation],
                           lastWords: String, before: Int, elapsed: Duration, first: CaseAttempt) async -> FuzzFinding {
        var tries = 0
        var last = (bytes: bytes, attempt: first)
        let budget = oracle == .crash ? min(settings.minimizingBudget, 60) : settings.minimizingBudget
        let deadline = ContinuousClock.now + settings.minimizingTime
        let shrunk = await Minimizer.minimizeFrames([bytes]) { frames in
            guard frames.count == 1, tries < budget, ContinuousClock.now < deadline, !Task.isCancelled,
                  let serverCase = ServerCase.make(frames[0], options: settings.options, number: 0, plan: plan) else { return false }
            tries += 1
            let attempt = await runner.attempt(serverCase, target: current, execution: nextExecution())
            let fired = await classify(attempt, of: serverCase, plan: plan)
            if oracle == .crash, fired?.0 == .crash { try? await refresh() }
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
        var verdict = controls.withLock { $0[signature] } ?? attempt.result.verdict
        // A server that dies or leaves a connection unanswered breaks EX-5 whatever the input asked.
        if oracle != .disagreement { verdict.requirements = [.ex5] }
        var finding = FuzzFinding(oracle: oracle, signature: signature, input: input, original: original, mutations: mutations,
                                  outcome: DecodeOutcome(of: input, options: settings.options), verdict: verdict,
                                  lastWords: lastWords, inputsBefore: before, elapsed: elapsed)
        finding.target = .server(plan)
        finding.defects = diagnosis?.mistakes(in: signature) ?? []
        finding.transcript = attempt.result.transcript
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

/// An input as a server is asked about it: the case, and how it is sent.
struct ServerInput: Sendable {
    var conformanceCase: ConformanceCase
    var plan: ServerCase.Plan
}
