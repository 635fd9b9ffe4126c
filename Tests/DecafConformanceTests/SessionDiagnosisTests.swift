import DecafConformance
import DecafDiagnosis
import DecafPeer
import DecafSession
import DecafTestSupport
import DecafWire
import Testing

/// The server and client suites' diagnosis against the reference peer and client with faults
/// (and, for the server, codec mistakes) planted: each alone is the one defect named, two
/// together are named exactly, and failures no catalogued mistake gives are left unexplained
/// rather than blamed on one. The targets here are judged in memory (`SimulatedServerCase`,
/// `SimulatedClientCase`), as the diagnosis judges its models; `DiagnosisCommandLineTests` runs
/// a peer and a client over loopback.
/// Each test judges hundreds of cases in memory: one test at a time, on a thread of its own, so the
/// run's cooperative threads and cores stay free for the tests that wait on sockets and clocks (side
/// by side, dozens of these starved them past their time limits).
@Suite("server and client diagnosis", .serialized, .timeLimit(.minutes(3)))
struct SessionDiagnosisTests {
    static let profile = ServerTargetsTests.profile

    static let serverCases = ConformanceCatalog(profile: profile).cases

    /// The run of the server suite against the peer broken `breakage`'s way, in memory.
    static func serverRun(_ breakage: ServerTargets.Breakage?, invented: Set<String> = []) throws -> ConformanceRun {
        let configuration = breakage?.configuration(from: ServerTargetsTests.configuration()) ?? ServerTargetsTests.configuration()
        let results = try serverCases.map { testCase in
            let verdict = invented.contains(testCase.id) ? Self.invented
                : try SimulatedServerCase(testCase, against: configuration, mistakes: Set(breakage?.mistakes ?? []), profile: profile).verdict()
            return CaseResult(testCase: testCase, verdict: verdict, transcript: [], duration: .zero)
        }
        return ConformanceRun(kind: .server, target: "in memory", identity: TargetIdentity(version: configuration.version, features: configuration.features, note: ""),
                              catalogChecksum: "", results: results, duration: .zero)
    }

    static func serverDiagnosis(_ breakage: ServerTargets.Breakage?, invented: Set<String> = []) async throws -> Diagnosis {
        try await ChildProcess.offCooperativeThreads {
            ServerDiagnosis.diagnose(try serverRun(breakage, invented: invented), cases: serverCases, profile: profile, timeout: .seconds(2))
        }
    }

    /// The verdicts of the server suite against the peer broken `breakage`'s way.
    static func serverVerdicts(_ breakage: ServerTargets.Breakage) async throws -> [Verdict] {
        try await ChildProcess.offCooperativeThreads { try serverRun(breakage).results.map(\.verdict) }
    }

    /// A failure no catalogued mistake gives: what a target with a defect of its own got.
    static let invented = Verdict(.fail, "the target answered with a frame of its own invention", expected: "an ACK", actual: "nothing Decaf knows",
                                  requirements: [.ex1])

    @Test("the faultless peer fails nothing, so nothing is diagnosed")
    func faultlessPeer() async throws {
        let diagnosis = try await Self.serverDiagnosis(nil)
        #expect(diagnosis.failures == 0 && diagnosis.defects.isEmpty)
    }

    /// A codec mistake the server suite cannot see (the peer writes what it reads correctly, and
    /// judges no timestamp window) gives no failure, and nothing is named.
    @Test("each fault or codec mistake of the peer alone is the one defect named, explaining every failure", arguments: ServerTargets.Breakage.all)
    func serverAlone(_ breakage: ServerTargets.Breakage) async throws {
        let diagnosis = try await Self.serverDiagnosis(breakage)
        guard diagnosis.failures > 0 else {
            #expect(diagnosis.defects.isEmpty && !breakage.mistakes.isEmpty, "--fault \(breakage.name) fails no server case")
            return
        }
        // The peer that does not verify checksums is one defect, named as the codec mistake.
        let named = breakage == .fault(.acceptBadCRC) ? ServerTargets.Breakage.mistake(.checksumNotVerified) : breakage
        #expect(diagnosis.defects.map(\.name) == [named.name], "\(diagnosis.headline): \(diagnosis.defects.map(\.name)), unexplained \(diagnosis.unexplained)")
        #expect(diagnosis.unexplained.isEmpty)
    }

    /// Pairs in which each shows: without either the peer's verdicts differ.
    static let serverPairs: [ServerTargets.Breakage] = {
        let all = ServerDiagnosis.catalog
        return stride(from: 0, to: all.count, by: 15).map { all[$0] + all[($0 + 11) % all.count] }
    }()

    @Test("two of the peer's faults and mistakes together are named exactly", arguments: serverPairs)
    func serverPair(_ pair: ServerTargets.Breakage) async throws {
        let verdicts = try await Self.serverVerdicts(pair)
        let members = pair.faults.map(ServerTargets.Breakage.fault) + pair.mistakes.map(ServerTargets.Breakage.mistake)
        var seen: [ServerTargets.Breakage] = []
        for member in members {
            let alone = try await Self.serverVerdicts(member)
            // A pair one of whose members hides the other's every failure is one defect to any observer.
            if alone == verdicts { return }
            // A member that fails nothing alone shows only through the other, and is not named.
            if alone.contains(where: \.kind.isFailure) { seen.append(member) }
        }
        let diagnosis = try await Self.serverDiagnosis(pair)
        #expect(Set(diagnosis.defects.map(\.name)) == Set(seen.map(\.name)), "\(diagnosis.headline): \(diagnosis.defects.map(\.name))")
    }

    /// Triples spread over the catalog; those in which one member's failures all hide behind the
    /// others' are one or two defects to any observer, and are left out.
    static let serverTriples: [[ServerTargets.Breakage]] = {
        let all = ServerDiagnosis.catalog
        return stride(from: 0, to: all.count, by: 9).map { [all[$0], all[($0 + 5) % all.count], all[($0 + 13) % all.count]] }
    }()

    @Test("three of the peer's faults and mistakes together are named exactly")
    func serverTriple() async throws {
        func together(_ members: [ServerTargets.Breakage]) -> ServerTargets.Breakage { members.reduce(ServerTargets.Breakage(faults: [], mistakes: []), +) }
        try await Self.namesTriples(Self.serverTriples, verdicts: { try await Self.serverVerdicts(together($0)) },
                                    diagnosis: { try await Self.serverDiagnosis(together($0)) })
    }

    /// Holds each of `triples` in which every member shows (it fails cases alone, and without it
    /// the other two give other verdicts) to be diagnosed as exactly its three, with no failure
    /// unexplained; and at least three triples to be so.
    static func namesTriples<Member: CataloguedMistake>(_ triples: [[Member]], verdicts: ([Member]) async throws -> [Verdict],
                                                       diagnosis: ([Member]) async throws -> Diagnosis) async throws {
        var tested = 0
        for triple in triples {
            let all = try await verdicts(triple)
            var shown = true
            for member in triple {
                let alone = try await verdicts([member])
                let without = try await verdicts(triple.filter { $0.name != member.name })
                if !alone.contains(where: \.kind.isFailure) || without == all { shown = false }
            }
            guard shown else { continue }
            tested += 1
            let found = try await diagnosis(triple)
            #expect(Set(found.defects.map(\.name)) == Set(triple.map(\.name)), "\(found.headline): \(found.defects.map(\.name))")
            #expect(found.unexplained.isEmpty, "\(triple.map(\.name)): \(found.unexplained)")
        }
        #expect(tested >= 3, "only \(tested) of the triples show every member")
    }

    @Test("failures no catalogued mistake gives are unexplained, alone and beside a catalogued defect")
    func serverUnexplained() async throws {
        let invented: Set<String> = ["exchange.heartbeat", "handshake.then-data", "wire.frame-basic.2"]
        let alone = try await Self.serverDiagnosis(nil, invented: invented)
        #expect(alone.defects.isEmpty && Set(alone.unexplained) == invented)
        let beside = try await Self.serverDiagnosis(.mistake(.depthLimitOffByOne), invented: invented)
        #expect(beside.defects.map(\.name) == [CodecMistake.depthLimitOffByOne.name] && Set(beside.unexplained) == invented)
    }

    /// A server with limits of its own (legal) that the suite was not told is named for what it
    /// behaves as, with the option that tells the suite: the catalog's mistake where the two are
    /// one behaviour (repeated tags taken), else the limit; never a mistake it may not make.
    @Test("a server with limits the suite was not told is named for them, with the option that tells it",
          arguments: [([ServerLimit.depth(8, told: 4)], true, ["duplicate-tags-accepted", "depth-limit-6"]),
                      ([.depth(3, told: 4), .body(4096, told: DecodeOptions.defaultBodyLimit)], false, ["depth-limit-3", "body-limit-4096"])])
    func serverUntoldLimits(_ limits: [ServerLimit], allowsDuplicateTags: Bool, named: [String]) async throws {
        let diagnosis = try await ChildProcess.offCooperativeThreads {
            var configuration = ServerTargetsTests.configuration()
            configuration.allowsDuplicateTags = allowsDuplicateTags
            configuration = limits.reduce(configuration) { ServerTargets.Breakage.limit($1).configuration(from: $0) }
            let results = try Self.serverCases.map { testCase in
                CaseResult(testCase: testCase, verdict: try SimulatedServerCase(testCase, against: configuration, profile: Self.profile).verdict(),
                           transcript: [], duration: .zero)
            }
            let run = ConformanceRun(kind: .server, target: "in memory", identity: TargetIdentity(version: configuration.version, features: configuration.features, note: ""),
                                     catalogChecksum: "", results: results, duration: .zero)
            return ServerDiagnosis.diagnose(run, cases: Self.serverCases, profile: Self.profile, timeout: .seconds(2))
        }
        #expect(Set(diagnosis.defects.map(\.name)) == Set(named) && diagnosis.unexplained.isEmpty, "\(diagnosis.headline): \(diagnosis.defects.map(\.name))")
        for defect in diagnosis.defects {
            #expect(["--allow-duplicate-tags", "--depth-limit", "--body-limit"].contains { defect.fix.contains($0) }, "\(defect.name): \(defect.fix)")
        }
    }

    // MARK: - Client

    /// The client cases but those that send megabytes (a debug build takes seconds over a body at
    /// the 10 MiB limit; no fault of the catalog shows only there).
    static let clientCases = ClientCatalog.cases.filter { testCase in
        testCase.script.connections.flatMap(\.transmissions).reduce(0) { $0 + $1.bytes.count } < 1 << 20
    }

    /// The run of the client suite against the reference client with `faults`, in memory.
    static func clientRun(_ faults: Set<ClientFault>, invented: Set<String> = []) throws -> ConformanceRun {
        let results = try clientCases.map { testCase in
            let verdict = invented.contains(testCase.id) ? Self.invented : try SimulatedClientCase(testCase, against: ReferenceClientTestee(faults: faults)).verdict()
            return CaseResult(testCase: testCase.conformanceCase, verdict: verdict, transcript: [], duration: .zero)
        }
        return ConformanceRun(kind: .client, target: "in memory", identity: nil, catalogChecksum: "", results: results, duration: .zero)
    }

    static func clientDiagnosis(_ faults: Set<ClientFault>, invented: Set<String> = []) async throws -> Diagnosis {
        try await ChildProcess.offCooperativeThreads { ClientDiagnosis.diagnose(try clientRun(faults, invented: invented), cases: clientCases) }
    }

    /// The verdicts of the client suite against the reference client with `faults`.
    static func clientVerdicts(_ faults: Set<ClientFault>) async throws -> [Verdict] {
        try await ChildProcess.offCooperativeThreads { try clientRun(faults).results.map(\.verdict) }
    }

    @Test("each fault of the client alone is the one defect named, explaining every failure", arguments: ClientDiagnosis.catalog)
    func clientAlone(_ fault: ClientFault) async throws {
        let diagnosis = try await Self.clientDiagnosis([fault])
        #expect(diagnosis.failures > 0)
        #expect(diagnosis.defects.map(\.name) == [fault.name], "\(diagnosis.headline): \(diagnosis.defects.map(\.name)), unexplained \(diagnosis.unexplained)")
        #expect(diagnosis.unexplained.isEmpty)
    }

    static let clientPairs: [[ClientFault]] = {
        let all = ClientDiagnosis.catalog
        return stride(from: 0, to: all.count, by: 13).map { [all[$0], all[($0 + 7) % all.count]] }
    }()

    @Test("two of the client's faults together are named exactly", arguments: clientPairs)
    func clientPair(_ pair: [ClientFault]) async throws {
        let verdicts = try await Self.clientVerdicts(Set(pair))
        for member in pair where try await Self.clientVerdicts([member]) == verdicts { return }
        let diagnosis = try await Self.clientDiagnosis(Set(pair))
        #expect(Set(diagnosis.defects.map(\.name)) == Set(pair.map(\.name)), "\(diagnosis.headline): \(diagnosis.defects.map(\.name))")
    }

    /// Triples spread over the catalog; those in which one fault's failures all hide behind the
    /// others' are left out.
    static let clientTriples: [[ClientFault]] = {
        let all = ClientDiagnosis.catalog
        return stride(from: 0, to: all.count, by: 5).map { [all[$0], all[($0 + 3) % all.count], all[($0 + 11) % all.count]] }
    }()

    @Test("three of the client's faults together are named exactly")
    func clientTriple() async throws {
        try await Self.namesTriples(Self.clientTriples, verdicts: { try await Self.clientVerdicts(Set($0)) },
                                    diagnosis: { try await Self.clientDiagnosis(Set($0)) })
    }

    @Test("a client's failures no catalogued fault gives are unexplained, alone and beside a catalogued defect")
    func clientUnexplained() async throws {
        let invented: Set<String> = ["client.exchange.data-acknowledged", "client.frame.four-containers"]
        let alone = try await Self.clientDiagnosis([], invented: invented)
        #expect(alone.defects.isEmpty && Set(alone.unexplained) == invented)
        let beside = try await Self.clientDiagnosis([.noHeartbeatAck], invented: invented)
        #expect(beside.defects.map(\.name) == [ClientFault.noHeartbeatAck.name] && Set(beside.unexplained) == invented)
    }
}
