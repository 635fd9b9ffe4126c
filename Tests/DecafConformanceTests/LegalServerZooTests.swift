import DecafConformance
import DecafPeer
import DecafSession
import DecafTestSupport
import DecafWire
import Testing

/// The zoo of legal servers: the reference peer with the choices the brief leaves a server
/// (`PeerChoice`, refusing a bad header only once the body is in, a timestamp window), each alone
/// and all together, passes every case of the server suite, judged in memory as the diagnosis
/// judges its models. A failure here is a false verdict of the suite's. `make zoo` runs each
/// member over loopback through `decaf conform server` and a `decaf fuzz server` campaign.
/// Each member judges the whole catalog in memory: one at a time, off the cooperative threads.
@Suite("the zoo of legal servers", .serialized, .timeLimit(.minutes(3)))
struct LegalServerZooTests {
    /// A member of the zoo: its name, how it sets the peer up, and what the suite is told of it
    /// (a limit the brief lets a receiver set is told as `decaf conform server` is told it).
    struct Member: CustomTestStringConvertible, Sendable {
        let name: String
        let configure: @Sendable (inout PeerConfiguration, inout ConformanceProfile) -> Void
        var testDescription: String { name }

        init(name: String, configure: @escaping @Sendable (inout PeerConfiguration) -> Void) {
            self.name = name
            self.configure = { configuration, _ in configure(&configuration) }
        }

        init(name: String, told configure: @escaping @Sendable (inout PeerConfiguration, inout ConformanceProfile) -> Void) {
            self.name = name
            self.configure = configure
        }
    }

    static let members: [Member] = PeerChoice.allCases.map { choice in Member(name: choice.rawValue) { $0.choices.insert(choice) } } + [
        Member(name: "refuses after the body") { $0.refusesFromHeader = false },
        Member(name: "a 60 s timestamp window") { $0.timestampWindow = 60 },
        Member(name: "every choice") { configuration in
            configuration.choices = Set(PeerChoice.allCases)
            configuration.refusesFromHeader = false
            configuration.timestampWindow = 60
        },
        // Limits the brief lets a receiver set, told to the suite: the vectors made for the
        // defaults are judged as such a server must read them.
        Member(name: "repeated tags allowed") { configuration, profile in
            configuration.allowsDuplicateTags = true
            profile.allowsDuplicateTags = true
        },
        Member(name: "a depth limit of 8") { configuration, profile in
            configuration.depthLimit = 8
            profile.depthLimit = 8
        },
        Member(name: "a 4 KiB body limit") { configuration, profile in
            configuration.bodyLimit = 4096
            profile.bodyLimit = 4096
        },
        Member(name: "version 1.2") { configuration, profile in
            configuration.version = ProtocolVersion(major: 1, minor: 2)
            profile.version = ProtocolVersion(major: 1, minor: 2)
        },
    ]

    /// A clock a day past the catalog's timestamps, as a run's is: what the suite sends unstamped
    /// is a day old to a peer with a timestamp window (the part of a header it sends cut short was
    /// once left so, and refused as TIMESTAMP_OUT_OF_WINDOW, a refusal the brief allows).
    static let now = CaseFrames.timestamp + 86_400

    /// A pass with a note is a verdict too: the reference's choices earn none.
    @Test("each legal server passes every case of the server suite, without a note", arguments: members)
    func passes(_ member: Member) async throws {
        var told = ServerTargetsTests.profile
        var chosen = ServerTargetsTests.configuration()
        member.configure(&chosen, &told)
        let (configuration, profile) = (chosen, told)
        let cases = ConformanceCatalog(profile: profile).cases
        let failures = try await ChildProcess.offCooperativeThreads {
            try cases.compactMap { testCase in
                let verdict = try SimulatedServerCase(testCase, against: configuration, profile: profile, unixTime: Self.now).verdict()
                return [.pass, .unsupported].contains(verdict.kind) ? nil : "\(testCase.id): \(verdict.kind.rawValue) \(verdict.reason)"
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
