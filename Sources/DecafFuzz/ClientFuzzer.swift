import DecafConformance
import DecafPeer
import DecafWire
import Synchronization

/// A campaign against a client testee (Specs/conform-client.md): for each mutant of the corpus
/// the client suite's scripted server sends the input (a quarter cut into two or three writes)
/// right after the handshake, then the sentinel DATA frame (`ClientCase.receiving`), judged by the
/// client suite's judge against what the brief makes of the input. Each job keeps its client
/// (`ClientTesteeSession`, AFLNet-style): an input goes out on the connection the last one left
/// open, or on the one the client opens again after a close; a client that exits or does not come
/// back is started again, so a client that never reconnects gets a process per input. With
/// `processPerInput`, every input has a client process and a listener of its own. A testee that
/// dies has crashed; one that neither acknowledges the sentinel nor closes the connection within
/// the timeout (and again with twice as long) hangs; one that breaks a MUST (delivers or
/// acknowledges a frame the brief refuses, refuses one it accepts, acknowledges it twice)
/// disagrees, confirmed by asking once more. A finding is asked again of a client started for it
/// alone; one that needs what the client was sent before (a fault of a session's later messages)
/// is asked after those inputs, as few of them as still set it off. Each distinct finding is
/// minimized and handed on at once. With `settings.coverage`, each job's clients are started with
/// a coverage map of the job's own (AFL++'s, as the decoder fuzzer gives a testee), cleared before
/// each input and read once it is judged.
public final class ClientFuzzer: FuzzCampaign {
    private let runner: ClientConformanceRunner
    /// Each job's runner: the one above, or with `--coverage` one whose clients get the job's map.
    private let runners: [ClientConformanceRunner]
    /// With `--coverage`, each job's coverage map.
    private let maps: [AFLSharedMemory]
    private let corpus: [[UInt8]]
    private let settings: FuzzSettings
    /// Names the defect a failure is, so findings are one per cause.
    private let diagnosis: FindingDiagnosis<ClientCase>?
    /// The client each job keeps, or none when every input has a process of its own.
    private let sessions: [ClientTesteeSession]
    public var target: String { runner.settings.command.joined(separator: " ") }

    /// `clock` gives the UNIX time the server's frames are stamped with; `diagnosis` names the
    /// defect of a failure, when its catalog has one that gives it. With `settings.coverage`, each
    /// job has a coverage map of the size the command says it needs (`AFLSharedMemory.mapSize(of:)`);
    /// throws when there is no shared memory for them.
    public init(command: [String], corpus: [[UInt8]], settings: FuzzSettings, diagnosis: FindingDiagnosis<ClientCase>? = nil,
                processPerInput: Bool = false, clock: @escaping @Sendable () -> UInt32) throws(FuzzError) {
        let run = ClientRunSettings(command: command, clock: clock)
        runner = ClientConformanceRunner(settings: run)
        var maps: [AFLSharedMemory] = []
        if settings.coverage {
            // A client that is not instrumented runs until stopped: it is given a few seconds to say its size.
            let size = AFLSharedMemory.mapSize(of: command, limit: .seconds(3)) ?? AFLSharedMemory.defaultSize
            for _ in 0..<settings.jobs { maps.append(try AFLSharedMemory(size: size)) }
        }
        self.maps = maps
        runners = maps.isEmpty ? [runner] : maps.map { map in
            var mapped = run
            mapped.environment = map.environment
            return ClientConformanceRunner(settings: mapped)
        }
        self.corpus = corpus
        self.settings = settings
        self.diagnosis = diagnosis
        sessions = processPerInput ? [] : (0..<settings.jobs).map { _ in ClientTesteeSession() }
    }

    /// Fuzzes until `settings.runs` inputs, `settings.duration`, `settings.maxFindings` or cancellation.
    public func run(progress: (FuzzProgress) -> Void, found: (FuzzFinding) -> Void) async throws(FuzzError) -> FuzzProgress {
        maps.first?.clear()
        try await probe(with: runners[0])
        var start = FuzzProgress()
        let maps = maps.first.map { $0.trace().isEmpty } == true ? [] : maps
        if settings.coverage && maps.isEmpty { start.note = Self.notInstrumented }
        let runners = maps.isEmpty ? [runner] : runners
        var signatures = Set<String>()
        let settings = settings
        let sessions = sessions
        // What each input's client was sent before it, by case, from its answer to its handling.
        let before = Mutex<[String: [[UInt8]]]>([:])
        defer { stop() }
        return try await FuzzLoop<ClientCase>(corpus: corpus, settings: settings).run(
            make: { bytes, number, random in
                let split = WriteSplit.random(for: bytes, using: &random)
                return Self.clientCase(bytes, options: settings.options, number: number, split: split, limit: settings.timeout)
            },
            attempt: { clientCase, job in
                if !maps.isEmpty { maps[job].clear() }
                let runner = runners[runners.count > 1 ? job : 0]
                guard sessions.indices.contains(job) else { return await runner.attempt(clientCase, execution: 0) }
                let attempt = await runner.attempt(clientCase, execution: 0, in: sessions[job])
                let earlier = sessions[job].history.dropLast().map(\.input)
                before.withLock { $0[clientCase.id] = earlier }
                return attempt
            },
            handle: { input, attempt, state, start throws(FuzzError) in
                let sentBefore = before.withLock { $0.removeValue(forKey: input.testCase.id) } ?? []
                // A hang in a kept client is asked again in `needed`: alone, then after what the client was sent before.
                guard let (oracle, signature) = try await classify(attempt, of: input.testCase, confirmingHangs: sessions.isEmpty) else { return .undisturbed }
                if signatures.contains(signature) {
                    state.repeats[signature, default: 0] += 1
                    return .undisturbed
                }
                guard let earlier = try await needed(sentBefore, for: input.testCase, oracle: oracle, signature: signature) else { return .undisturbed }
                signatures.insert(signature)
                let finding = await minimized(input, oracle: oracle, signature: signature, elapsed: ContinuousClock.now - start, first: attempt, earlier: earlier)
                state.findings += 1
                found(finding)
                return .undisturbed
            },
            answer: Self.answer, traces: maps.isEmpty ? nil : { maps[$0].trace() }, coverage: maps.first.map { CoverageMap(size: $0.size) },
            sync: try settings.syncDirectory(), from: start, progress: progress)
    }

    /// What `--coverage` says of a client whose answer to the first frame hit no edge of its map.
    static let notInstrumented = "--coverage: the client's handshake and first frame reached no edge of the coverage map, so it is not "
        + "instrumented by AFL++; fuzzing without coverage. Build it with afl-clang-fast (AFL++: sudo make deps, or apt install afl++), "
        + "e.g. make client-c CC=afl-clang-fast"

    /// Sends `bytes` once, cut into writes of `split` bytes, to a client sent `earlier` first (each
    /// whole, in a case of its own): the verdict, and the oracle and signature that fire.
    public func judge(_ bytes: [UInt8], split: [Int], earlier: [[UInt8]] = []) async throws(FuzzError) -> (attempt: CaseAttempt, fired: (FuzzOracle, String)?)? {
        try await probe()
        guard let clientCase = Self.clientCase(bytes, options: settings.options, number: 1, split: split, limit: settings.timeout) else { return nil }
        let attempt = await ask(clientCase, after: earlier)
        return (attempt, try await classify(attempt, of: clientCase))
    }

    /// Asks `clientCase` of a client started for it, after `earlier` inputs, each whole in a case of
    /// its own with a sentinel of its own, on the same client.
    private func ask(_ clientCase: ClientCase, after earlier: [[UInt8]]) async -> CaseAttempt {
        guard !earlier.isEmpty else { return await runner.attempt(clientCase, execution: 0) }
        let session = ClientTesteeSession()
        defer { session.end() }
        for (index, bytes) in earlier.enumerated() {
            let number = Int(clientCase.turn) + 1 + index
            guard let before = Self.clientCase(bytes, options: settings.options, number: number, split: [], limit: settings.timeout) else { continue }
            _ = await runner.attempt(before, execution: 0, in: session)
        }
        return await runner.attempt(clientCase, execution: 0, in: session)
    }

    /// What a client must be sent before `clientCase` for `signature` to fire again, asked again
    /// of a client started for it (a hang with twice the wait): nothing when it fires alone; else
    /// the fewest of `sentBefore` (what the client was sent before it, oldest first) with which it
    /// still fires; nil when it fires with neither, which for a disagreement or a hang is no
    /// finding: the answer was the moment's. A crash stands whatever: the client died, after what
    /// it was sent.
    private func needed(_ sentBefore: [[UInt8]], for clientCase: ClientCase, oracle: FuzzOracle, signature: String) async throws(FuzzError) -> [[UInt8]]? {
        var asked = clientCase
        if oracle == .hang { asked.limit = settings.timeout * 2 }
        func fires(after earlier: [[UInt8]]) async throws(FuzzError) -> Bool {
            try await classify(ask(asked, after: earlier), of: asked, confirmingHangs: false)?.1 == signature
        }
        // A client started for each input needs nothing before it: its crash stands, and its hang
        // was asked again alone when it was classified.
        if sessions.isEmpty && (oracle == .crash || oracle == .hang) { return [] }
        if try await fires(after: []) { return [] }
        guard !sentBefore.isEmpty, try await fires(after: sentBefore) else { return oracle == .crash ? sentBefore : nil }
        // The fewest earlier inputs that still set it off: each left out in turn, oldest first,
        // within the time a finding may take to minimize.
        var earlier = sentBefore
        var index = 0
        let deadline = ContinuousClock.now + settings.minimizingTime
        while index < earlier.count, ContinuousClock.now < deadline, !Task.isCancelled {
            var fewer = earlier
            fewer.remove(at: index)
            if try await fires(after: fewer) { earlier = fewer } else { index += 1 }
        }
        return earlier
    }

    /// Has the client sent `ProbeFrame` first: one that cannot take it (it cannot be started,
    /// never connects, prints what is not an event, fails the handshake or a plain DATA frame)
    /// cannot be fuzzed: every input would fail the same way before its own bytes mattered.
    private func probe(with runner: ClientConformanceRunner? = nil) async throws(FuzzError) {
        guard let probe = Self.clientCase(ProbeFrame.bytes, options: settings.options, number: 0, split: [], limit: settings.timeout) else { return }
        let attempt = await (runner ?? self.runner).attempt(probe, execution: 0)
        if attempt.cannotStart { throw .cannotStart(attempt.result.verdict.reason) }
        let words = attempt.lastWords.isEmpty ? "" : "; its standard error ended: \(attempt.lastWords)"
        if let unusable = attempt.unusable {
            throw .cannotStart("the testee, sent a plain DATA frame, \(unusable)" + words)
        }
        let verdict = attempt.result.verdict
        if verdict.kind.isFailure {
            let before = Self.inputArrived(attempt, of: probe) ? "" : " before the frame was even sent"
            throw .cannotStart("every input would fail the same way\(before): sent a plain DATA frame after the handshake, \(verdict.reason)\(words). "
                + "decaf conform client shows it case by case; fix it, then fuzz")
        }
    }

    /// Whether the case's input reached the client: the server's script wrote it (not a client
    /// that failed the handshake, or closed, before the input's turn).
    static func inputArrived(_ attempt: CaseAttempt, of clientCase: ClientCase) -> Bool {
        let label = clientCase.script.connection(0).firstSentLabel
        return attempt.result.transcript.contains { $0.direction == .sent && Transmission.write($0.label ?? "", carries: label) }
    }

    public func explained(_ findings: [FuzzFinding]) -> [FuzzFinding] {
        guard let diagnosis else { return findings }
        return findings.map { finding in
            guard finding.defects.isEmpty, finding.oracle != .crash, case let .client(split, _) = finding.target,
                  let clientCase = Self.clientCase(finding.input, options: settings.options, number: 0, split: split, limit: settings.timeout) else { return finding }
            var explained = finding
            explained.defects = diagnosis.namedCause(of: finding.verdict, for: clientCase)
            return explained
        }
    }

    /// Stops the clients the jobs keep.
    public func stop() {
        for session in sessions { session.end() }
    }

    /// The client case of input `number`, or nil when the bytes are not one frame's stream under
    /// every legal reading or carry a sequence the case's own frames use. A client may be
    /// configured to allow a tag repeated in one sequence (TLV-3), as the client suite's
    /// `client.frame.duplicate-tags` allows, so the legal readings are those of both settings,
    /// each with every other choice followed to its end: a frame refused only without repeats
    /// allowed (a repeat; a repeat after an empty container past the depth limit, which a client
    /// blaming the first field found too deep takes) may be taken; and when a client allowing
    /// repeats reads a frame and bytes after it, the input is not asked, as `DecoderCase` does not
    /// ask one (what it does with the bytes after the frame is the next frame's business, which
    /// the case cannot judge).
    static func clientCase(_ bytes: [UInt8], options: DecodeOptions, number: Int, split: [Int], limit: Duration) -> ClientCase? {
        // Each input of a campaign has a sentinel of its own, so a client kept for many inputs
        // never sees one sentinel twice (REPLAY-1).
        let turn = UInt32(truncatingIfNeeded: number) % ClientCase.turns
        guard var codecCase = DecoderCase.make(bytes, options: options, number: number) else { return nil }
        var allowing = options
        allowing.tlv.allowsDuplicateTags = true
        if case let .invalid(refusal) = codecCase.vector.expectation, !options.tlv.allowsDuplicateTags {
            guard let taken = DecoderCase.make(bytes, options: allowing, number: number) else { return nil }
            switch taken.vector.expectation {
            case let .valid(frame), let .acceptable(frame, _): codecCase.vector.expectation = .acceptable(frame, refusal)
            case .invalid: break
            }
        }
        guard var clientCase = ClientCase.receiving(codecCase.vector, group: "fuzz", split: split, limit: limit, turn: turn, moment: Self.moment) else { return nil }
        // A client that closed on an input is asked the next one when it comes back: the sooner,
        // the more inputs a second.
        clientCase.suggested.reconnectBase = Self.reconnectWait
        clientCase.suggested.reconnectMax = Self.reconnectWait * 2
        return clientCase
    }

    /// What is left on either side of the server's close after an input cut short: the client
    /// reads the bytes before the close all the same, and whatever it reports of them comes before
    /// the case is judged (once its output has ended, or in a session once it has reported the
    /// handshake of its next connection).
    static let moment = Duration.milliseconds(5)

    /// The first wait before reconnecting suggested to a fuzzed client (half the longest).
    static let reconnectWait = Duration.milliseconds(1)

    /// Which oracle an attempt fires, and what makes it this fault: nothing for a pass, a case the
    /// client does not support, or a failure of a case that is not a MUST. A testee that can no
    /// longer be started ends the campaign.
    private func classify(_ attempt: CaseAttempt, of clientCase: ClientCase, confirmingHangs: Bool = true) async throws(FuzzError) -> (FuzzOracle, String)? {
        let verdict = attempt.result.verdict
        if attempt.cannotStart { throw .cannotStart(verdict.reason) }
        guard !Task.isCancelled else { return nil }
        if let unusable = attempt.unusable {
            return unusable.hasPrefix("printed something") ? (.disagreement, "output that is not the client protocol") : nil
        }
        if verdict.reason.hasPrefix(ClientJudge.crashReason) {
            // How it died and its last words.
            return (.crash, "crash: " + FaultSignature.masked(attempt.lastWords.isEmpty ? verdict.reason : attempt.lastWords))
        }
        switch verdict.kind {
        case .timeout:
            let hang = (FuzzOracle.hang, diagnosed("hang", verdict, in: clientCase))
            guard confirmingHangs else { return hang }
            var patient = clientCase
            patient.limit = settings.timeout * 2
            let again = await runner.attempt(patient, execution: 0)
            // A wait the campaign's end or an interruption cut short shows no hang.
            return again.result.verdict.kind == .timeout && !Task.isCancelled ? hang : nil
        case .fail where !Self.inputArrived(attempt, of: clientCase):
            // The input never reached the client: whatever it was, the failure is one cause.
            return (.disagreement, "before the input arrived: \(FaultSignature.masked(verdict.reason))")
        case .fail where clientCase.level == .required || verdict.breaksMust:
            return (.disagreement, diagnosed("\(FaultSignature.masked(verdict.reason)); \(Self.brief(clientCase.check))", verdict, in: clientCase))
        default:
            return nil
        }
    }

    /// "defect NAME" when catalogued mistakes' model gives `verdict` on `clientCase`; else `signature`.
    private func diagnosed(_ signature: String, _ verdict: Verdict, in clientCase: ClientCase) -> String {
        let cause = diagnosis?.cause(of: verdict, for: clientCase, signature: signature) ?? []
        return cause.isEmpty ? signature : FuzzFinding.signature(of: cause)
    }

    /// What the brief asks of the client for a case's input, in a few words: part of a
    /// disagreement's signature, so a fault that shows on frames of several types is one finding.
    private static func brief(_ check: ClientCheck) -> String {
        switch check {
        case .takes: "must take it"
        case let .refuses(code, _): "must refuse with \(code.name)"
        case .truncatedIgnored: "must not deliver a frame cut short"
        default: "must accept or refuse"
        }
    }

    /// The finding of `input`, shrunk while the same oracle fires with the same signature, within
    /// the settings' budget of tries and time, each asked after `earlier` (what the client must be
    /// sent first).
    private func minimized(_ input: FuzzLoop<ClientCase>.Input, oracle: FuzzOracle, signature: String, elapsed: Duration, first: CaseAttempt,
                           earlier: [[UInt8]]) async -> FuzzFinding {
        let split = Self.split(of: input.testCase)
        var tries = 0
        var last = (bytes: input.bytes, attempt: first)
        let deadline = ContinuousClock.now + settings.minimizingTime
        let shrunk = await Minimizer.minimizeFrames([input.bytes]) { frames in
            // A shorter input keeps the cuts that still fall inside it.
            let cuts = Self.cuts(split, within: frames.first?.count ?? 0)
            guard frames.count == 1, tries < settings.minimizingBudget, ContinuousClock.now < deadline, !Task.isCancelled,
                  let clientCase = Self.clientCase(frames[0], options: settings.options, number: 0, split: cuts, limit: settings.timeout) else { return false }
            tries += 1
            let attempt = await ask(clientCase, after: earlier)
            // A hang is not asked again with twice the wait at each try (that would cost three
            // timeouts a try); the smallest one is, below.
            guard (try? await classify(attempt, of: clientCase, confirmingHangs: false))?.1 == signature else { return false }
            last = (frames[0], attempt)
            return true
        }
        var bytes = shrunk.first == last.bytes ? last.bytes : input.bytes
        if oracle == .hang, bytes != input.bytes,
           let smallest = Self.clientCase(bytes, options: settings.options, number: 0, split: Self.cuts(split, within: bytes.count), limit: settings.timeout),
           (try? await classify(ask(smallest, after: earlier), of: smallest))?.1 != signature {
            bytes = input.bytes
        }
        let attempt = bytes == last.bytes ? last.attempt : first
        var finding = FuzzFinding(oracle: oracle, signature: signature, input: bytes, original: input.bytes, mutations: input.mutations,
                                  outcome: DecodeOutcome(of: bytes, options: settings.options), verdict: attempt.result.verdict,
                                  lastWords: attempt.lastWords, inputsBefore: input.number - 1, elapsed: elapsed)
        // A client that dies or stops answering breaks EX-5 whatever the input asked.
        if oracle != .disagreement { finding.verdict.requirements = [.ex5] }
        finding.target = .client(split: Self.cuts(split, within: bytes.count), earlier: earlier)
        finding.defects = diagnosis?.mistakes(in: signature) ?? []
        finding.transcript = attempt.result.transcript
        return finding
    }

    /// The sizes of the writes a case's input is cut into.
    private static func split(of clientCase: ClientCase) -> [Int] {
        for step in clientCase.script.connection(0).steps {
            if case let .send(transmission) = step { return transmission.split }
        }
        return []
    }

    /// The write sizes of `split` that still cut an input of `count` bytes.
    static func cuts(_ split: [Int], within count: Int) -> [Int] {
        var left = count
        return split.filter { size in
            guard size < left else { return false }
            left -= size
            return true
        }
    }

    /// The kind of answer an attempt got: the verdict's kind and the events the testee reported
    /// after `ready` and `handshake` (an error with its name).
    static func answer(of attempt: CaseAttempt) -> String {
        let events = attempt.result.transcript.filter { $0.direction == .reported }.compactMap { entry -> String? in
            switch ClientTesteeEvent(line: String(decoding: entry.bytes, as: UTF8.self), defaults: .suggested) {
            case nil, .ready, .handshake: nil
            case let .error(name): "error \(name)"
            case let event?: event.name
            }
        }
        return attempt.result.verdict.kind.rawValue + ": " + (events.isEmpty ? "nothing" : events.joined(separator: ","))
    }
}
