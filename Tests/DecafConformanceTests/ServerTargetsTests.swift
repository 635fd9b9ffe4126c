import DecafConformance
import DecafDiagnosis
import DecafPeer
import DecafSession
import DecafTestSupport
import DecafWire
import Logging
import Testing

/// The server suite judged against the reference peer in memory (`SimulatedServerCase`), and the
/// suite's mutation coverage built on it (`ServerTargets`, `decaf conform coverage --targets --role
/// server`): the same verdicts as over loopback, in seconds.
@Suite("server targets", .timeLimit(.minutes(3)))
struct ServerTargetsTests {
    static let profile: ConformanceProfile = {
        var profile = ConformanceProfile()
        // Above the 2 s a case waits for an answer: a silent peer is not closed as idle just as the
        // wait ends (over loopback either may come first).
        profile.idleTimeout = .seconds(5)
        return profile
    }()

    static func configuration(_ faults: [PeerFault] = []) -> PeerConfiguration {
        var configuration = PeerConfiguration()
        configuration.idleTimeout = .seconds(5)
        configuration.faults = faults
        return configuration
    }

    @Test("in memory, the faultless peer passes every case of the catalog, the idle close and the slow ones included")
    func faultlessPeerPasses() throws {
        let cases = ConformanceCatalog(profile: Self.profile).cases
        let notPassing = try cases.compactMap { testCase in
            let verdict = try SimulatedServerCase(testCase, against: Self.configuration(), profile: Self.profile).verdict()
            return verdict.kind.isPass ? nil : "\(testCase.id): \(verdict.kind.rawValue) \(verdict.reason)"
        }
        #expect(notPassing == [])
        #expect(cases.count > 200)
    }

    /// The same cases over loopback against a running peer and in memory: the same verdict each,
    /// for the faultless peer, a fault that delays (time is virtual in memory) and a codec mistake.
    @Test("over loopback and in memory, each case gets the same verdict", arguments: [
        ([], []), ([PeerFault.slowAck(delay: .seconds(1))], []), ([], [CodecMistake.checksumNotVerified]), ([PeerFault.ackWrongSequence], []),
    ] as [([PeerFault], [CodecMistake])])
    func sameVerdicts(faults: [PeerFault], mistakes: [CodecMistake]) async throws {
        let cases = ConformanceCatalog(profile: Self.profile).cases.filter { $0.id.hasPrefix("wire.checksum.") || $0.id.hasPrefix("exchange.") }
        let configuration = Self.configuration(faults)
        var logger = Logger(label: "decaf.peer.test")
        logger.logLevel = .critical
        let now: UInt32 = CaseFrames.timestamp
        let server = try await PeerServer.start(configuration: configuration, port: 0, mistakes: Set(mistakes), logger: logger, threads: 1, clock: { now })
        var settings = ServerRunSettings(host: "127.0.0.1", port: server.localAddress.port!, clock: { now })
        settings.timeout = .seconds(2)
        settings.jobs = 8
        let run = try await ServerConformanceRunner(catalog: ConformanceCatalog(profile: Self.profile), settings: settings).run(cases)
        try await server.shutdown()
        #expect(run.results.count == cases.count)
        for result in run.results where result.heldUp == nil {
            let simulated = try SimulatedServerCase(result.testCase, against: configuration, mistakes: Set(mistakes), profile: Self.profile).verdict()
            #expect(simulated.kind == result.verdict.kind, "\(result.testCase.id): in memory \(simulated.kind.rawValue) (\(simulated.reason)), over loopback \(result.verdict.kind.rawValue) (\(result.verdict.reason))")
        }
        if !faults.isEmpty || !mistakes.isEmpty {
            #expect(run.results.contains { $0.verdict.kind.isFailure }, "the broken peer failed no case")
        }
    }

    @Test("every target fails the cases it is listed for, and only cases that check a requirement it breaks")
    func targets() throws {
        let coverage = try ServerTargets(profile: Self.profile)
        let byID = Dictionary(uniqueKeysWithValues: coverage.targets.map { ($0.id, $0) })
        let required = coverage.targets.filter { $0.level == .required }
        #expect(required.count > 200)
        #expect(coverage.targets.allSatisfy { $0.reference == nil }, "the faultless peer passes every case")
        // Known pairs: a checksum vector fails a peer that does not verify checksums, however it is broken.
        let checksum = try #require(byID["wire.checksum.206"], "a DATA frame whose checksum is wrong")
        #expect(checksum.breakages.contains(.fault(.acceptBadCRC)) && checksum.breakages.contains(.mistake(.checksumNotVerified)), "\(checksum.breakages)")
        #expect(byID["exchange.ack.prompt"]?.breakages.contains(.fault(.slowAck(delay: PeerFault.defaultSlowAckDelay))) == true)
        let catalog = Dictionary(uniqueKeysWithValues: ConformanceCatalog(profile: Self.profile).cases.map { ($0.id, $0) })
        for target in coverage.targets {
            let requirements = Set(catalog[target.id]?.requirements ?? [])
            for breakage in target.breakages {
                #expect(!requirements.isDisjoint(with: breakage.breaks), "\(target.id) lists \(breakage.option), which breaks none of its requirements")
            }
        }
        // What is covered now; a change that loses a target fails here (the rest are listed as NONE).
        #expect(required.count - coverage.missing.count >= 162, "required cases with a target: \(required.count - coverage.missing.count)")
        #expect(coverage.missing.contains("exchange.idle-timeout"), "no fault keeps an idle connection open yet")
    }

    @Test("decaf conform coverage --targets --role server lists each required case with its targets, NONE where it has none, exit 1 while any has none")
    func command() async throws {
        let run = try await DecafProcess.run(["conform", "coverage", "--targets", "--role", "server"])
        #expect(run.status == 1)
        #expect(run.output.contains("--fault accept-bad-crc") && run.output.contains("--mistake checksum-not-verified"))
        #expect(run.output.contains("exchange.idle-timeout") && run.output.contains("NONE"))
        #expect(run.output.contains(" required server cases fail against the reference peer with a fault or a codec mistake; "))
        let misplaced = try await DecafProcess.run(["conform", "coverage", "--role", "server"])
        #expect(misplaced.status == 2 && misplaced.error.contains("--role goes with --targets"), "\(misplaced.error)")
    }
}
