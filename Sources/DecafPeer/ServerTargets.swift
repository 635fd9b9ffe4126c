import DecafConformance
import DecafDiagnosis
import DecafSession
import DecafWire

/// The server suite's own mutation coverage: for each case, the broken servers under which it
/// fails, each a target that breaks what the case checks. A target is the reference peer with
/// one fault (`decaf peer --fault`) or with one codec mistake in its decoder (`decaf peer
/// --mistake`), and it counts for a case only when it breaks a requirement the case checks: a
/// fault that spoils every frame the peer sends fails every case, and is the target of none but
/// those about what it spoils. A required case no target fails would pass a server that gets its
/// rule wrong. A required case that no one way of breaking fails gets the pairs that fail it.
/// Every case is judged against the peer in memory (`SimulatedServerCase`), the faultless peer
/// first: a case it does not pass has no target worth the name, and says so.
public struct ServerTargets: Sendable {
    /// A broken server: the reference peer with faults, mistakes in its decoder, or both; for a
    /// diagnosis, also limits of its own the suite was not told (legal, but judged as failures).
    public struct Breakage: Hashable, Sendable {
        public let faults: [PeerFault]
        public let mistakes: [CodecMistake]
        public let limits: [ServerLimit]

        public init(faults: [PeerFault], mistakes: [CodecMistake], limits: [ServerLimit] = []) {
            self.faults = faults
            self.mistakes = mistakes
            self.limits = limits
        }

        /// The peer with `fault`.
        public static func fault(_ fault: PeerFault) -> Breakage { Breakage(faults: [fault], mistakes: []) }

        /// The peer whose decoder makes `mistake`.
        public static func mistake(_ mistake: CodecMistake) -> Breakage { Breakage(faults: [], mistakes: [mistake]) }

        /// The peer with limit `limit`.
        public static func limit(_ limit: ServerLimit) -> Breakage { Breakage(faults: [], mistakes: [], limits: [limit]) }

        /// The peer broken both ways at once.
        public static func + (lhs: Breakage, rhs: Breakage) -> Breakage {
            Breakage(faults: lhs.faults + rhs.faults, mistakes: lhs.mistakes + rhs.mistakes, limits: lhs.limits + rhs.limits)
        }

        /// How `decaf peer` is told to break this way.
        public var option: String {
            (faults.map { "--fault \($0.name)" } + mistakes.map { "--mistake \($0.name)" } + limits.map(\.option)).joined(separator: " ")
        }

        /// The requirements a server broken this way breaks.
        public var breaks: [RequirementID] {
            faults.flatMap(\.breaks) + mistakes.flatMap(\.breaks) + limits.flatMap(\.breaks)
        }

        /// The peer's configuration broken this way, from `configuration`.
        public func configuration(from configuration: PeerConfiguration) -> PeerConfiguration {
            var broken = configuration
            broken.faults = faults
            return limits.reduce(broken) { $1.applied(to: $0) }
        }

        /// The suite's targets: every fault but the rare ones only fuzzing finds, and every
        /// catalogued codec mistake.
        public static let all: [Breakage] = PeerFault.all.map(Breakage.fault) + CodecMistake.allCases.map(Breakage.mistake)
    }

    /// One case of the catalog: its targets, and how the faultless peer fared.
    public struct Target: Sendable {
        public let id: String
        public let level: ConformanceLevel
        /// The broken servers the case fails, among those that break a requirement it checks.
        public let breakages: [Breakage]
        /// What the faultless peer got, when it did not pass (then the targets prove nothing).
        public let reference: Verdict?
    }

    /// Each case's targets, in the catalog's order.
    public let targets: [Target]

    /// Judges the catalog of `profile` against the faultless peer and each of `breakages`. The
    /// idle case needs an idle timeout: the profile's, or 5 s (virtual: it costs nothing), well
    /// above the 2 s a case waits for an answer, so no other case meets the idle close (a target
    /// that stays silent would be closed just as the wait ends, and pass as refused).
    public init(profile: ConformanceProfile = ConformanceProfile(), breakages: [Breakage] = Breakage.all) throws {
        var profile = profile
        profile.idleTimeout = profile.idleTimeout ?? .seconds(5)
        var configuration = PeerConfiguration()
        configuration.idleTimeout = profile.idleTimeout ?? configuration.idleTimeout
        targets = try ConformanceCatalog(profile: profile).cases.map { testCase in
            func fails(_ breakage: Breakage) throws -> Bool {
                guard !Set(breakage.breaks).isDisjoint(with: testCase.requirements) else { return false }
                return try SimulatedServerCase(testCase, against: breakage.configuration(from: configuration), mistakes: Set(breakage.mistakes),
                                               profile: profile).verdict().kind.isFailure
            }
            let reference = try SimulatedServerCase(testCase, against: configuration, profile: profile).verdict()
            var failing = try breakages.filter(fails)
            if failing.isEmpty && testCase.level == .required && reference.kind.isPass {
                // What no one way of breaking fails, two at once may: a case that ends the stream
                // after bytes the server must refuse fails only a server that both takes (or keeps
                // open on) them and does not see the end.
                // Each of the two breaks a requirement the case checks: a fault that spoils every
                // frame fails every case, with any partner.
                let relevant = breakages.filter { !Set($0.breaks).isDisjoint(with: testCase.requirements) }
                failing = try relevant.indices.flatMap { first in
                    relevant[(first + 1)...].map { relevant[first] + $0 }
                }.filter(fails)
            }
            return Target(id: testCase.id, level: testCase.level, breakages: failing, reference: reference.kind.isPass ? nil : reference)
        }
    }

    /// The required cases no target fails, or that the faultless peer does not pass.
    public var missing: [String] {
        targets.filter { $0.level == .required && ($0.breakages.isEmpty || $0.reference != nil) }.map(\.id)
    }
}
