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
    /// Throws, running no case, when the target cannot be reached at all.
    public func run(_ cases: [ConformanceCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async throws(TargetUnreachable) -> ConformanceRun {
        let started = ContinuousClock.now
        let target = try await identify()
        var results: [CaseResult?] = Array(repeating: nil, count: cases.count)
        var done = 0
        await withTaskGroup(of: (Int, CaseResult).self) { group in
            var next = 0
            func launch() {
                guard next < cases.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await runRepeated(cases[index], number: index, target: target)) }
            }
            for _ in 0..<max(1, settings.jobs) { launch() }
            for await (index, result) in group {
                results[index] = result
                done += 1
                progress(result, done, cases.count)
                launch()
            }
        }
        return ConformanceRun(
            kind: .server, target: "\(settings.host):\(settings.port)", identity: target, catalogChecksum: catalog.checksum,
            results: results.compactMap { $0 }, duration: ContinuousClock.now - started
        )
    }

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

    /// Runs `testCase` once on a fresh connection, its frames in `session`.
    func runOnce(_ testCase: ConformanceCase, session: SessionID, target: TargetIdentity) async -> CaseResult {
        let started = ContinuousClock.now
        let client: WireClient
        do {
            client = try await WireClient.connect(host: settings.host, port: settings.port, recordsTranscript: true)
        } catch {
            return CaseResult(testCase: testCase, verdict: Verdict(.harnessError, "cannot connect to \(settings.host):\(settings.port): \(ConnectionFailure.reason(error))"),
                              transcript: [], duration: ContinuousClock.now - started)
        }
        let execution = CaseExecution(testCase: testCase, client: client, connecting: started, target: target, settings: settings, profile: catalog.profile,
                                      session: session)
        let verdict = await execution.run()
        await client.close()
        return CaseResult(testCase: testCase, verdict: verdict, transcript: client.transcript, duration: ContinuousClock.now - started)
    }

    /// The opening handshake, by a `ClientSession` as every Decaf client does it: the newest minor of
    /// the profile's major and every known feature. The answer is what HS-2 makes of the target's
    /// own version and features. Throws when no connection can be made.
    public func identify() async throws(TargetUnreachable) -> TargetIdentity {
        let profile = catalog.profile
        let offer = VersionRequest(version: ProtocolVersion(major: profile.version.major, minor: .max), features: .known)
        let assumed = TargetIdentity(version: profile.version, features: .known, note: "")
        let report: HandshakeReport
        do {
            report = try await HandshakeClient.run(host: settings.host, port: settings.port, offer: offer, session: CaseFrames.session,
                                                   timeout: settings.timeout, now: settings.clock ?? { CaseFrames.timestamp })
        } catch {
            throw TargetUnreachable(host: settings.host, port: settings.port, reason: "\(error)")
        }
        guard let response = report.response else {
            var identity = assumed
            identity.note = "the opening handshake got no VERSION_RESPONSE but \(report.insteadOfResponse); assumed version \(profile.version) and every known feature"
            return identity
        }
        return TargetIdentity(version: response.version, features: response.features,
                              note: "from the opening handshake, which offered \(offer.version) and \(offer.features)")
    }
}

/// A target no connection could be made to: the run stops before any case, since every one would
/// fail for the same reason.
public struct TargetUnreachable: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    /// In the user's words: "cannot connect to 127.0.0.1:9: connection refused".
    public let reason: String

    public var description: String {
        "\(reason); is the server running and listening there? (no case ran)"
    }
}
