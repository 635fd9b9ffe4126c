import DecafWire

/// Every conformance case, built for a profile of the target. The catalog is data: its checksum
/// (over every case's ID, level, requirements, summary and bytes) names exactly what a report ran.
public struct ConformanceCatalog: Sendable {
    /// The suite's version, recorded in every report.
    public static let suiteVersion = "decaf-conform 1"

    public let profile: ConformanceProfile
    public let cases: [ConformanceCase]

    public init(profile: ConformanceProfile = ConformanceProfile()) {
        self.profile = profile
        cases = HandshakeCases.cases(for: profile) + ExchangeCases.cases(for: profile)
            + StreamCases.cases(for: profile) + VectorCases.cases(for: profile)
    }

    /// A catalog of the profile and no case of its own, for running cases made elsewhere (the
    /// fuzzer's inputs): building the whole catalog costs a start of a debug build a second.
    public static func empty(profile: ConformanceProfile) -> ConformanceCatalog {
        ConformanceCatalog(profile: profile, cases: [])
    }

    private init(profile: ConformanceProfile, cases: [ConformanceCase]) {
        self.profile = profile
        self.cases = cases
    }

    /// The case with `id`, if there is one.
    public func `case`(_ id: String) -> ConformanceCase? { cases.first { $0.id == id } }

    /// CRC-32 of the catalog's canonical bytes, as 8 hex digits: two runs with the same checksum
    /// ran the same cases with the same bytes.
    public var checksum: String {
        var canonical: [UInt8] = []
        for item in cases {
            let head = [item.id, item.level.rawValue, item.requirements.map(\.rawValue).joined(separator: ","), item.summary]
            canonical += Array(head.joined(separator: "\u{1F}").utf8) + [0x1E]
            for step in item.steps {
                switch step {
                case let .send(transmission):
                    let shape = "send \(transmission.label) \(transmission.split) \(transmission.pause) \(transmission.stamps.map { [$0.headerOffset, Int($0.skew), $0.setsClock ? 1 : 0] })"
                    canonical += Array(shape.utf8) + transmission.bytes
                case .endStream:
                    canonical += Array("end".utf8)
                case let .expect(expectation):
                    canonical += Array("expect \(expectation)".utf8)
                }
                canonical.append(0x1D)
            }
        }
        return Hex.format(CRC32.checksum(canonical), width: 8)
    }
}
