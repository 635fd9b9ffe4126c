import DecafConformance
import DecafDiagnosis
import DecafSession
import DecafWire
import Foundation

/// A campaign against a codec testee (`Specs/conform-testee.md`): mutants of the corpus, each
/// asked of the testee through the codec suite's driver and judged by its judge against what the
/// brief makes of it. A crash, a hang or a disagreement that breaks a MUST is a finding; each
/// distinct one is minimized and handed on at once, so an interrupted run keeps every finding.
public final class DecoderFuzzer: FuzzCampaign {
    /// One testee per job: a testee answers one request at a time.
    private let drivers: [DecoderSuiteDriver]
    private var driver: DecoderSuiteDriver { drivers[0] }
    /// With `--coverage`, each job's coverage map, its testee started with its name.
    private let maps: [AFLSharedMemory]
    private let corpus: [[UInt8]]
    private let settings: FuzzSettings

    /// A campaign against `command`. With `settings.coverage`, each testee is given a coverage
    /// map of the size the command says it needs (`AFLSharedMemory.mapSize(of:)`, AFL's 64 KiB
    /// at least); throws when there is no shared memory for it.
    public init(command: [String], corpus: [[UInt8]], settings: FuzzSettings) throws(FuzzError) {
        let lineLimit = DecoderSuiteDriver.lineLimit(bodyLimit: settings.options.bodyLimit)
        var maps: [AFLSharedMemory] = []
        if settings.coverage {
            let size = AFLSharedMemory.mapSize(of: command) ?? AFLSharedMemory.defaultSize
            for _ in 0..<settings.jobs { maps.append(try AFLSharedMemory(size: size)) }
        }
        self.maps = maps
        drivers = (0..<settings.jobs).map { job in
            DecoderSuiteDriver(command: command, environment: settings.coverage ? maps[job].environment : [:], timeout: settings.timeout, lineLimit: lineLimit)
        }
        self.corpus = corpus
        self.settings = settings
    }

    /// Fuzzes until `settings.runs` inputs, `settings.duration`, `settings.maxFindings` or cancellation; `progress` hears
    /// where the run is (about four times a second), `found` each new finding.
    public func run(progress: (FuzzProgress) -> Void, found: (FuzzFinding) -> Void) async throws(FuzzError) -> FuzzProgress {
        defer { stop() }
        maps.first?.clear()
        try await probe()
        var start = FuzzProgress()
        let maps = maps.first.map { $0.trace().isEmpty } == true ? [] : maps
        if settings.coverage && maps.isEmpty { start.note = Self.notInstrumented }
        var signatures = Set<String>()
        let drivers = drivers
        let options = settings.options
        return try await FuzzLoop<CodecCase>(corpus: corpus, settings: settings).run(
            make: { bytes, number, _ in DecoderCase.make(bytes, options: options, number: number) },
            attempt: { codecCase, job in
                if !maps.isEmpty { maps[job].clear() }
                return await drivers[job].attempt(codecCase)
            },
            handle: { input, attempt, state, start throws(FuzzError) in
                if attempt.cannotStart { throw .cannotStart(attempt.result.verdict.reason) }
                Self.account(attempt.irregularities, asking: input.number, in: &state)
                guard !state.isStopped, !Task.isCancelled, let (oracle, signature) = Self.classify(attempt, of: input.testCase) else { return .undisturbed }
                if oracle != .crash, signatures.contains(signature) {
                    state.repeats[signature, default: 0] += 1
                    return .undisturbed
                }
                let confirmed = await confirmed(input.testCase, signature: signature)
                // A confirmation the campaign's end or an interruption cut short confirms nothing.
                guard !Task.isCancelled else { return .undisturbed }
                guard confirmed else {
                    // A death the input does not bring about again: the testee exits by itself.
                    if oracle == .crash { Self.account(TesteeIrregularities(exits: [attempt.result.verdict.reason]), asking: input.number, in: &state) }
                    return .undisturbed
                }
                guard signatures.insert(signature).inserted else {
                    state.repeats[signature, default: 0] += 1
                    return .undisturbed
                }
                let finding = await minimized(input.bytes, oracle: oracle, signature: signature, mutations: input.mutations, before: input.number - 1,
                                              elapsed: ContinuousClock.now - start, first: attempt)
                state.findings += 1
                found(finding)
                return .undisturbed
            },
            answer: Self.answer,
            traces: maps.isEmpty ? nil : { maps[$0].trace() }, coverage: maps.first.map { CoverageMap(size: $0.size) },
            sync: try settings.syncDirectory(), from: start, progress: progress)
    }

    /// What `--coverage` says of a testee whose first answer hit no edge of its map.
    static let notInstrumented = "--coverage: the testee's first answer reached no edge of the coverage map, so it is not instrumented by AFL++; "
        + "fuzzing without coverage. Build it with afl-clang-fast (AFL++: sudo make deps, or apt install afl++), e.g. make testee-c CC=afl-clang-fast"

    /// Asks the testee about `bytes` once: the oracle and signature that fire, if any.
    public func judge(_ bytes: [UInt8]) async throws(FuzzError) -> (attempt: CaseAttempt, fired: (FuzzOracle, String)?)? {
        guard let codecCase = DecoderCase.make(bytes, options: settings.options, number: 1) else { return nil }
        let attempt = await driver.attempt(codecCase)
        if attempt.cannotStart { throw .cannotStart(attempt.result.verdict.reason) }
        return (attempt, Self.classify(attempt, of: codecCase))
    }

    /// Exits by itself past which a campaign gives up on a testee, when they are also at least one
    /// input in `exitShare`: its answers are then more about its restarts than about its codec.
    static let exitsBeforeGivingUp = 10
    static let exitShare = 20

    /// Counts what the testee did besides answering, noticed while input `number` was asked, and
    /// gives up on a testee that cannot be fuzzed as it behaves: one that writes what no request
    /// asked for (no later answer could be trusted to be the one asked for), or keeps exiting.
    static func account(_ irregularities: TesteeIrregularities, asking number: Int, in state: inout FuzzProgress) {
        state.testeeExits += irregularities.exits.count
        if irregularities.unrequestedBytes > 0 {
            var told = irregularities
            told.unrequestedAfter = irregularities.unrequestedBeforeRequest ? "an earlier input (seen as input \(number) was asked)" : "input \(number)"
            state.targetLost = told.description + "; the findings saved before are kept"
        } else if state.testeeExits >= exitsBeforeGivingUp, state.testeeExits * exitShare >= state.inputs {
            state.targetLost = "the testee exited by itself \(state.testeeExits) times in \(state.inputs) inputs, between requests or on inputs "
                + "it answered when asked again (the last: \(irregularities.exits.last ?? "")): a testee answers requests until its input ends"
        }
    }

    /// Asks the testee about `ProbeFrame` first.
    private func probe() async throws(FuzzError) {
        guard let probe = DecoderCase.make(ProbeFrame.bytes, options: settings.options, number: 0) else { return }
        let attempt = await driver.attempt(probe)
        if attempt.cannotStart { throw .cannotStart(attempt.result.verdict.reason) }
        if let unusable = attempt.unusable {
            throw .cannotStart("the testee, asked about a plain DATA frame, \(unusable)" + (attempt.lastWords.isEmpty ? "" : "; its standard error ended: \(attempt.lastWords)"))
        }
    }

    /// Stops the testees.
    public func stop() {
        for driver in drivers { driver.stop() }
    }

    /// Whether `codecCase` fires `signature` again when asked once more, of a testee started for
    /// it alone, waiting twice the timeout: a testee that was only slow (a big input on a loaded
    /// machine) is not called hung, and an answer it gave another input late is not taken for this one's.
    private func confirmed(_ codecCase: CodecCase, signature: String) async -> Bool {
        Self.classify(await driver.attempt(codecCase, waiting: settings.timeout * 2, alone: true), of: codecCase)?.1 == signature
    }

    /// The finding of `bytes`, shrunk while the same oracle fires with the same signature, within
    /// the settings' budget of tries.
    private func minimized(_ bytes: [UInt8], oracle: FuzzOracle, signature: String, mutations: [FrameMutation], before: Int,
                           elapsed: Duration, first: CaseAttempt) async -> FuzzFinding {
        var tries = 0
        var last = (bytes: bytes, attempt: first)
        let deadline = ContinuousClock.now + settings.minimizingTime
        let shrunk = await Minimizer.minimizeFrames([bytes]) { frames in
            guard frames.count == 1, tries < settings.minimizingBudget, ContinuousClock.now < deadline, !Task.isCancelled,
                  let codecCase = DecoderCase.make(frames[0], options: settings.options, number: 0) else { return false }
            tries += 1
            let attempt = await driver.attempt(codecCase)
            guard Self.classify(attempt, of: codecCase)?.1 == signature else { return false }
            last = (frames[0], attempt)
            return true
        }
        let input = shrunk.first == last.bytes ? last.bytes : bytes
        let attempt = input == last.bytes ? last.attempt : first
        var finding = FuzzFinding(oracle: oracle, signature: signature, input: input, original: bytes, mutations: mutations,
                                  outcome: DecodeOutcome(of: input, options: settings.options), verdict: attempt.result.verdict,
                                  lastWords: attempt.lastWords, inputsBefore: before, elapsed: elapsed)
        finding.transcript = attempt.result.transcript
        finding.defects = FuzzFinding.defectNames(in: signature).compactMap(CodecMistake.init(rawValue:))
        return finding
    }

    /// Which oracle an attempt fires, and what makes it this fault: nothing for a pass, a skip,
    /// or a disagreement the brief allows.
    static func classify(_ attempt: CaseAttempt, of codecCase: CodecCase) -> (FuzzOracle, String)? {
        let verdict = attempt.result.verdict
        switch verdict.kind {
        case .timeout:
            return (.hang, "hang")
        case .fail:
            if let unusable = attempt.unusable {
                if unusable.hasPrefix("answered with a line") { return (.disagreement, "an answer that is not the testee protocol") }
                // How it died and its last words.
                return (.crash, "crash: \(unusable); \(FaultSignature.masked(attempt.lastWords))")
            }
            // Only what no legal receiver answers is a failure: every choice the brief leaves stands.
            if let response = response(of: attempt), DecoderCase.isLegal(response, of: codecCase) { return nil }
            // One finding per defect: the catalogued mistake that gives this answer, when one does.
            if let response = response(of: attempt), let mistake = CodecMistake.cause(of: response, to: codecCase) {
                return (.disagreement, FuzzFinding.signature(of: [mistake]))
            }
            let brief = codecCase.vector.expectation.refusal.map { "must refuse with \($0.error.name)" } ?? "must accept"
            return (.disagreement, "\(verdict.reason); \(brief)")
        default:
            return nil
        }
    }

    /// The kind of answer an attempt got: `frame`, an error's name, `skipped`, or what went wrong.
    static func answer(of attempt: CaseAttempt) -> String {
        guard let response = response(of: attempt) else { return attempt.result.verdict.kind.rawValue }
        return response.error ?? response.result
    }

    /// The testee's answer, when it gave one of the testee protocol.
    static func response(of attempt: CaseAttempt) -> TesteeMessage.Response? {
        guard let answer = attempt.result.transcript.last(where: { $0.label == "answer" }) else { return nil }
        return try? JSONDecoder().decode(TesteeMessage.Response.self, from: Data(answer.bytes))
    }
}
