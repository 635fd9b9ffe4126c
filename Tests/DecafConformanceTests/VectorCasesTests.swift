import DecafConformance
import DecafPeer
import DecafSession
import DecafWire
import Testing

/// The vector cases of the server suite for a target configured otherwise than the brief's
/// defaults: the vectors made for the defaults are judged again as that target must read them,
/// so its configuration is tested as thoroughly as the defaults are, and against what it was told.
@Suite("vector cases for a target's own limits")
struct VectorCasesTests {
    static func vectorCases(_ profile: ConformanceProfile) -> [ConformanceCase] {
        ConformanceCatalog(profile: profile).cases.filter { $0.id.hasPrefix("wire.") }
    }

    static var allowingRepeats: ConformanceProfile {
        var profile = ServerTargetsTests.profile
        profile.allowsDuplicateTags = true
        return profile
    }

    @Test("a target told to allow repeated tags, a deeper nesting or a smaller body gets every vector made for the defaults, judged as it must read them")
    func everyVector() throws {
        let defaults = Self.vectorCases(ServerTargetsTests.profile)
        let repeats = Self.vectorCases(Self.allowingRepeats)
        var deeper = ServerTargetsTests.profile
        deeper.depthLimit = 8
        var smaller = ServerTargetsTests.profile
        smaller.bodyLimit = 4096
        for cases in [repeats, Self.vectorCases(deeper), Self.vectorCases(smaller)] {
            #expect(Set(defaults.map(\.id)).isSubset(of: Set(cases.map(\.id))))
        }
        // A repeated tag refused by default is a frame to acknowledge for a target that allows it.
        let repeated = try #require(repeats.first { $0.id == "wire.tlv-duplicates.440" })
        #expect(repeated.summary.contains("as a target with its own limits reads it"))
        #expect(!repeated.requirements.contains(.ex5))
    }

    @Test("a server configured otherwise than the suite was told fails the vector the difference decides, either way")
    func toldOtherwise() throws {
        let now = CaseFrames.timestamp + 86_400
        var allowing = ServerTargetsTests.configuration()
        allowing.allowsDuplicateTags = true
        for (configuration, profile) in [(ServerTargetsTests.configuration(), Self.allowingRepeats), (allowing, ServerTargetsTests.profile)] {
            let repeated = try #require(Self.vectorCases(profile).first { $0.id == "wire.tlv-duplicates.440" })
            let verdict = try SimulatedServerCase(repeated, against: configuration, profile: profile, unixTime: now).verdict()
            #expect(verdict.kind == .fail, "\(verdict.reason)")
        }
        // Told the truth, both pass.
        for (configuration, profile) in [(ServerTargetsTests.configuration(), ServerTargetsTests.profile), (allowing, Self.allowingRepeats)] {
            let repeated = try #require(Self.vectorCases(profile).first { $0.id == "wire.tlv-duplicates.440" })
            #expect(try SimulatedServerCase(repeated, against: configuration, profile: profile, unixTime: now).verdict().kind == .pass)
        }
    }
}
