import DecafConformance
import DecafDiagnosis
import DecafSession
import DecafWire

/// The diagnosis of a server run: which faults of the reference peer and codec mistakes in its
/// decoder (`ServerTargets.Breakage`), planted together in the peer judged in memory
/// (`SimulatedServerCase`), give the verdicts the server got (`DefectSearch`). The peer is given
/// what the run learned of the target (its version and features) and the profile it was judged
/// with, so a failure that comes of another configuration is left unexplained, not forced on a
/// mistake.
public enum ServerDiagnosis {
    /// The faults and mistakes a diagnosis draws on: the suite's targets, but the peer fault
    /// `accept-bad-crc`, which is the codec mistake `checksum-not-verified` by another name (one
    /// defect is named once).
    public static let catalog = ServerTargets.Breakage.all.filter { $0 != .fault(.acceptBadCRC) }

    /// The catalog, and the limits a server judged with `profile` may have of its own
    /// (`ServerLimit`): a server told otherwise is named for what it behaves as, with the option
    /// that tells the suite. For a run's diagnosis only, which weighs every case at once: a fuzz
    /// finding is named only when exactly one model gives it, and limits of one kind all give the
    /// same answer to an input nested or sized past them.
    public static func catalog(for profile: ConformanceProfile) -> [ServerTargets.Breakage] {
        catalog + ServerLimit.candidates(for: profile).map(ServerTargets.Breakage.limit)
    }

    /// The defects of the server whose run is `run`, of `cases` (the catalog the run drew on),
    /// judged with `profile` and `timeout` as the run was.
    public static func diagnose(_ run: ConformanceRun, cases: [ConformanceCase], profile: ConformanceProfile, timeout: Duration) -> Diagnosis {
        let byID = Dictionary(cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let results = run.results.filter { byID[$0.testCase.id] != nil }
        let ran = results.map { byID[$0.testCase.id]! }
        let identity = run.identity
        @Sendable func judge(_ breakages: [ServerTargets.Breakage], _ index: Int) -> Verdict {
            verdict(of: ran[index], with: breakages, identity: identity,
                    profile: profile, timeout: timeout)
        }
        let searched = results.indices.map { index in
            DefectSearch<ServerTargets.Breakage>.Case(id: ran[index].id, size: ran[index].transmissions.reduce(0) { $0 + $1.bytes.count },
                                                      actual: results[index].verdict, requirements: ran[index].requirements)
        }
        return DefectSearch.diagnose(cases: searched, catalog: catalog(for: profile),
                                     judge: judge, same: { model, got, _ in model.isSame(as: got) })
    }

    /// The verdict of the reference peer with `breakages` planted together, on `serverCase`, judged in memory
    /// as a run with `profile` and `timeout` judges it: the peer has the version and features of
    /// `identity` (what the run learned of the target) and the profile's limits; none planted: the reference.
    public static func verdict(of serverCase: ConformanceCase, with breakages: [ServerTargets.Breakage], identity: TargetIdentity?,
                               profile: ConformanceProfile, timeout: Duration) -> Verdict {
        let breakage = breakages.reduce(ServerTargets.Breakage(faults: [], mistakes: []), +)
        var configuration = PeerConfiguration()
        if let identity {
            configuration.version = identity.version
            configuration.features = identity.features
        }
        configuration.bodyLimit = profile.bodyLimit
        configuration.depthLimit = profile.depthLimit
        configuration.allowsDuplicateTags = profile.allowsDuplicateTags
        configuration.idleTimeout = profile.idleTimeout ?? configuration.idleTimeout
        do {
            return try SimulatedServerCase(serverCase, against: breakage.configuration(from: configuration), mistakes: Set(breakage.mistakes),
                                           profile: profile, timeout: timeout).verdict()
        } catch {
            return Verdict(.harnessError, "the peer in memory could not be set up: \(error)")
        }
    }
}

extension ServerTargets.Breakage: CataloguedMistake {
    /// The faults' and mistakes' names, as `decaf peer --fault` and `--mistake` take them, and the
    /// limits' (`depth-limit-6`).
    public var name: String { (faults.map(\.name) + mistakes.map(\.name) + limits.map(\.name)).joined(separator: " + ") }

    /// What the server does wrong, or otherwise than the suite was told.
    public var cause: String { (faults.map(\.summary) + mistakes.map(\.cause) + limits.map(\.cause)).joined(separator: "; ") }

    /// What to change; for a mistake a server may make on purpose, also the option that tells the
    /// suite so.
    public var fix: String {
        (faults.map(\.fix) + mistakes.map { [$0.fix, ServerLimit.telling($0)].compactMap { $0 }.joined(separator: "; ") } + limits.map(\.fix))
            .joined(separator: "; ")
    }
}
