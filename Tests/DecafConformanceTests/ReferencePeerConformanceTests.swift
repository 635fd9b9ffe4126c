import DecafConformance
import DecafSession
import DecafPeer
import DecafWire
import Logging
import Testing

/// The suite tested against the reference peer over loopback: every required case passes against
/// the peer as it is, and against the peer taking the brief's latitude the other way. That every
/// fault the peer can be given fails a case naming a requirement it breaks is shown in memory, on a
/// virtual clock (`ServerTargetsTests`), which a test holds to the same verdicts as over loopback.
@Suite("conformance suite against the reference peer", .timeLimit(.minutes(5)))
struct ReferencePeerConformanceTests {
    static let now: UInt32 = 1_700_000_000

    /// Runs the whole catalog against a peer with `faults`. With `idleTimeout`, the peer closes idle
    /// connections after it and the idle case runs; without, the peer's idle timeout is the brief's
    /// 90 s, so it cannot close a connection that a fault left open.
    /// `ackDeadline` is how soon `exchange.ack.prompt` wants an ACK; `timeout` how long the suite
    /// waits for what it expects (a peer doing right answers at once, so only failures wait it out).
    /// `only` picks the cases to run (all by default).
    static func run(faults: [PeerFault], idleTimeout: Duration? = nil, ackDeadline: Duration = .milliseconds(500), timeout: Duration = .seconds(2),
                    choosing choices: (inout PeerConfiguration) -> Void = { _ in },
                    only: (ConformanceCase) -> Bool = { _ in true }) async throws -> ConformanceRun {
        var configuration = PeerConfiguration()
        configuration.faults = faults
        choices(&configuration)
        if let idleTimeout { configuration.idleTimeout = idleTimeout }
        var logger = Logger(label: "decaf.conform.test")
        logger.logLevel = .critical
        let server = try await PeerServer.start(configuration: configuration, port: 0, logger: logger, threads: 1, clock: { now })
        var profile = ConformanceProfile()
        profile.idleTimeout = idleTimeout
        profile.ackDeadline = ackDeadline
        var settings = ServerRunSettings(host: "127.0.0.1", port: server.localAddress.port!, clock: { now })
        settings.timeout = timeout
        settings.jobs = 8
        let run = try await ServerConformanceRunner(catalog: ConformanceCatalog(profile: profile), settings: settings).run(ConformanceCatalog(profile: profile).cases.filter(only))
        try await server.shutdown()
        return run
    }

    @Test("every case passes against the peer as it is, and the run exits 0")
    func referencePeerPasses() async throws {
        // The other tests' peers and processes load both cores meanwhile, and the peer's one event
        // loop may be busy for seconds with another case's 10 MiB body: the timeouts leave room.
        // The peer keeps the brief's 90 s idle timeout here, so a case that the loaded machine
        // leaves waiting for seconds between two writes is not closed as idle (a 10 s idle timeout
        // once closed frame.coalesced.cut-in-second-header mid-case); the idle case runs alone below.
        let run = try await Self.run(faults: [], ackDeadline: .milliseconds(1500), timeout: .seconds(10), only: { $0.id != Self.idleCase })
        let notPassing = run.results.filter { !$0.verdict.kind.isPass && $0.testCase.level != .optional }
        #expect(notPassing.map { "\($0.testCase.id): \($0.verdict.kind.rawValue) \($0.verdict.reason)" } == [])
        #expect(run.results.count == ConformanceCatalog().cases.count - 1)
        #expect(run.results.count > 200)
        #expect(run.identity?.features == .known)
        #expect(run.exitStatus == 0)
    }

    static let idleCase = "exchange.idle-timeout"

    /// 2 s, so the close may come up to 2 s late (`TimingTolerance`): the peer's one event loop
    /// shares both cores with the whole test run (with 1 s it once closed 1.0 s late).
    @Test("the peer closes an idle connection after its idle timeout (EX-6)")
    func idleTimeout() async throws {
        let run = try await Self.run(faults: [], idleTimeout: .seconds(2), only: { $0.id == Self.idleCase })
        #expect(run.results.map(\.testCase.id) == [Self.idleCase])
        #expect(run.results.map(\.verdict.kind) == [.pass], "\(run.results.map(\.verdict.reason))")
        #expect(run.exitStatus == 0)
    }

    /// The brief lets a receiver refuse a bad header at once or once the body is in (all but a body
    /// too large), and enforce a timestamp window or not (TS-1, a MAY). A peer that takes each
    /// choice the other way is as correct, and must pass every required case.
    @Test("a peer taking the brief's latitude the other way passes every required case")
    func latitude() async throws {
        let run = try await Self.run(faults: [], ackDeadline: .milliseconds(1500), timeout: .seconds(10)) { configuration in
            configuration.refusesFromHeader = false
            configuration.timestampWindow = 60
        }
        let failing = run.results.filter { $0.verdict.kind.isFailure && $0.testCase.level == .required }
        #expect(failing.map { "\($0.testCase.id): \($0.verdict.reason)" } == [])
        #expect(run.results.first { $0.testCase.id == "wire.frame-compression.84" }?.verdict.kind == .pass)
        #expect(run.exitStatus == 0)
    }

    @Test("a VERSION_RESPONSE that breaks the protocol is named in the run's header, not taken for no answer")
    func identitySaysWhatCame() async throws {
        var configuration = PeerConfiguration()
        configuration.faults = [.crcLittleEndian]
        var logger = Logger(label: "decaf.conform.test")
        logger.logLevel = .critical
        let server = try await PeerServer.start(configuration: configuration, port: 0, logger: logger, threads: 1, clock: { Self.now })
        let settings = ServerRunSettings(host: "127.0.0.1", port: server.localAddress.port!, clock: { Self.now })
        let identity = try await ServerConformanceRunner(catalog: ConformanceCatalog(), settings: settings).identify()
        try await server.shutdown()
        #expect(identity.note.hasPrefix("the opening handshake got no VERSION_RESPONSE but a reply that breaks the protocol, CHECKSUM_MISMATCH (CRC-2)"),
                "\(identity.note)")
    }
}
