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
        let outcome = await SuiteRunner(driver: ServerSuiteDriver(catalog: catalog, settings: settings, target: target)).run(cases, progress: progress)
        return ConformanceRun(
            kind: .server, target: "\(settings.host):\(settings.port)", identity: target, catalogChecksum: catalog.checksum,
            results: outcome.results, duration: ContinuousClock.now - started, planned: cases.count, stop: outcome.stop
        )
    }

    /// Runs one case, made outside the catalog, once on a fresh connection against a target whose
    /// handshake gave `target`: how the fuzzer asks a server about an input.
    public func attempt(_ testCase: ConformanceCase, target: TargetIdentity, execution: Int) async -> CaseAttempt {
        await ServerSuiteDriver(catalog: catalog, settings: settings, target: target).attempt(testCase, execution: execution)
    }

    /// The opening handshake, by a `ClientSession` as every Decaf client does it: the newest minor of
    /// the profile's major and every known feature. The answer is what HS-2 makes of the target's
    /// own version and features. When it gets no answer at all, a DATA frame is tried: a server
    /// that ignores the handshake but acknowledges DATA is still tested. Throws, with what
    /// answered instead, when the target cannot be tested. With `execution`, in that execution's
    /// own session (`attempt`'s): a target that remembers CONTROL frames across a session's
    /// connections (interpretation 15) takes a handshake opened the same way in the same second
    /// for a repeat, and answers it with an ACK alone.
    public func identify(execution: Int? = nil) async throws(TargetProblem) -> TargetIdentity {
        let profile = catalog.profile
        let offer = VersionRequest(version: ProtocolVersion(major: profile.version.major, minor: .max), features: .known)
        let assumed = TargetIdentity(version: profile.version, features: .known, note: "")
        let name = "\(settings.host):\(settings.port)"
        let report: HandshakeReport
        do {
            report = try await HandshakeClient.run(host: settings.host, port: settings.port, offer: offer, session: execution.map(ServerSuiteDriver.session(ofExecution:)) ?? CaseFrames.session,
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
