import DecafNIO
import DecafWire

/// Runs cases against a server: first an opening handshake to learn the target's version and
/// features, then every case on its own connection, several at once, each as many times as asked.
public struct ServerConformanceRunner: Sendable {
    public let catalog: ConformanceCatalog
    public let settings: ServerRunSettings

    public init(catalog: ConformanceCatalog, settings: ServerRunSettings) {
        self.catalog = catalog
        self.settings = settings
    }

    /// Runs `cases` (from the catalog) and reports each result to `progress` as it completes.
    /// Throws, running no case, when the opening handshake shows the target cannot be tested: it
    /// cannot be reached, is not a Decaf server, or answers nothing. Stops early, keeping the
    /// results reached, when the task is cancelled (`stop` is `.interrupted`), or when three cases
    /// in a row timed out and a fresh handshake fails too (`.targetLost`).
    public func run(_ cases: [ConformanceCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async throws(TargetProblem) -> ConformanceRun {
        let started = ContinuousClock.now
        let target = try await identify()
        var results: [CaseResult?] = Array(repeating: nil, count: cases.count)
        var done = 0
        var stalledInARow = 0
        var lost: String?
        let complete = await CaseScheduler(jobs: settings.jobs).run(count: cases.count) { index in
            await runRepeated(cases[index], number: index, target: target)
        } completed: { (index: Int, result: CaseResult) -> Bool in
            results[index] = result
            done += 1
            progress(result, done, cases.count)
            stalledInARow = result.stalled ? stalledInARow + 1 : 0
            guard stalledInARow >= Self.stallsBeforeCheck else { return true }
            stalledInARow = 0
            do throws(TargetProblem) { _ = try await identify() } catch {
                // A check cut short by an interruption says nothing of the target.
                guard !Task.isCancelled else { return false }
                lost = "\(Self.stallsBeforeCheck) cases in a row timed out (the last \(result.testCase.id)), and a fresh handshake failed too: \(error.reason)"
                return false
            }
            return true
        }
        let stop: ConformanceRun.Stop? = complete ? nil : Task.isCancelled ? .interrupted : lost.map { .targetLost($0) } ?? .interrupted
        return ConformanceRun(
            kind: .server, target: "\(settings.host):\(settings.port)", identity: target, catalogChecksum: catalog.checksum,
            results: results.compactMap { $0 }, duration: ContinuousClock.now - started, planned: cases.count, stop: stop
        )
    }

    /// Cases in a row that timed out, after which the target is checked with a fresh handshake.
    static let stallsBeforeCheck = 3

    private func runRepeated(_ testCase: ConformanceCase, number: Int, target: TargetIdentity) async -> CaseResult {
        var runs: [CaseResult] = []
        let repeats = max(1, settings.repeats)
        for run in 0..<repeats {
            runs.append(await runOnce(testCase, session: Self.session(ofExecution: number * repeats + run), target: target))
        }
        return CaseResult.merging(runs)
    }

    /// The session of the run's n-th execution (from 0): the catalog's, changed in its low bits, so
    /// no two executions of a run share one (up to 65,535 of them) and none uses the catalog's own.
    static func session(ofExecution number: Int) -> SessionID {
        SessionID(rawValue: CaseFrames.session.rawValue ^ UInt16(number % 65_535 + 1))
    }

    /// Runs `testCase` once on a fresh connection, its frames in `session`. Every wait has a
    /// deadline (`settings.timeout`), and the case as a whole its `limit`: a case that reaches it
    /// anyway times out.
    func runOnce(_ testCase: ConformanceCase, session: SessionID, target: TargetIdentity) async -> CaseResult {
        let started = ContinuousClock.now
        let client: WireClient
        do {
            client = try await WireClient.connect(host: settings.host, port: settings.port, recordsTranscript: true, timeout: settings.timeout)
        } catch {
            return CaseResult(testCase: testCase, verdict: Verdict(.harnessError, "cannot connect to \(settings.host):\(settings.port): \(ConnectionFailure.reason(error))"),
                              transcript: [], duration: ContinuousClock.now - started)
        }
        let limit = limit(of: testCase)
        let verdict = await withTaskGroup(of: Verdict?.self) { group in
            group.addTask { [settings, catalog] in
                await CaseExecution(testCase: testCase, client: client, connecting: started, target: target, settings: settings, profile: catalog.profile,
                                    session: session).run()
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? Verdict(.timeout, "the case did not finish within \(limit), the limit of a case of \(testCase.steps.count) steps with --timeout \(settings.timeout)",
                                    requirements: testCase.requirements)
        }
        await client.close()
        return CaseResult(testCase: testCase, verdict: verdict, transcript: client.transcript, duration: ContinuousClock.now - started)
    }

    /// The longest `testCase` may take: each step's wait (a write, an answer) at most the timeout,
    /// twice over for the sentinel some expectations send, the pauses between a transmission's
    /// writes, and for the idle case the idle timeout with its tolerance.
    func limit(of testCase: ConformanceCase) -> Duration {
        var limit = settings.timeout * (2 * testCase.steps.count + 2)
        for step in testCase.steps {
            switch step {
            case let .send(transmission): limit += transmission.pause * transmission.split.count
            case .expect(.idleClose): limit += catalog.profile.idleTimeout.map { TimingTolerance.bounds($0).upperBound } ?? .zero
            default: break
            }
        }
        return limit
    }

    /// The opening handshake, by a `ClientSession` as every Decaf client does it: the newest minor of
    /// the profile's major and every known feature. The answer is what HS-2 makes of the target's
    /// own version and features. When it gets no answer at all, a DATA frame is tried: a server
    /// that ignores the handshake but acknowledges DATA is still tested. Throws, with what
    /// answered instead, when the target cannot be tested.
    public func identify() async throws(TargetProblem) -> TargetIdentity {
        let profile = catalog.profile
        let offer = VersionRequest(version: ProtocolVersion(major: profile.version.major, minor: .max), features: .known)
        let assumed = TargetIdentity(version: profile.version, features: .known, note: "")
        let name = "\(settings.host):\(settings.port)"
        let report: HandshakeReport
        do {
            report = try await HandshakeClient.run(host: settings.host, port: settings.port, offer: offer, session: CaseFrames.session,
                                                   timeout: settings.timeout, now: settings.clock ?? { CaseFrames.timestamp })
        } catch {
            throw TargetProblem(reason: "\(error)")
        }
        var finding = TargetProbe.judge(report, offer: offer, target: name, timeout: settings.timeout, assumed: assumed)
        if finding == .silent {
            finding = TargetProbe.judgeData(acknowledged: await dataIsAcknowledged(), target: name, timeout: settings.timeout, assumed: assumed)
        }
        switch finding {
        case let .speaks(identity): return identity
        case let .unusable(reason): throw TargetProblem(reason: reason)
        case .silent: throw TargetProblem(reason: "\(name) answered nothing")
        }
    }

    /// Whether the target acknowledges a DATA frame on a connection of its own within the timeout.
    private func dataIsAcknowledged() async -> Bool {
        guard let client = try? await WireClient.connect(host: settings.host, port: settings.port, timeout: settings.timeout) else { return false }
        let (header, fields) = CaseFrames.data(CaseFrames.sentinelCounter, "is anyone there?")
        let deadline = ContinuousClock.now + settings.timeout
        var acknowledged = false
        if (try? await client.send(raw: CaseFrames.bytes(header, fields), within: settings.timeout)) != nil {
            while case let remaining = deadline - ContinuousClock.now, remaining > .zero, let event = await client.next(timeout: remaining) {
                if case let .frame(frame) = event, frame.header.messageType == .ack, frame.header.sequence == header.sequence { acknowledged = true }
                if acknowledged { break }
                if case .closed = event { break }
            }
        }
        await client.close()
        return acknowledged
    }
}
