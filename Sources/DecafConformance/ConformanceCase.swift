import DecafVectors
import DecafWire

/// One conformance case: a stable ID that is never reused, the requirements it checks, how
/// strongly the spec demands them, and the steps with the outcomes the spec accepts. Cases are
/// data, so one catalog serves the command line, the tests, the vectors and the reports.
public struct ConformanceCase: Hashable, Sendable, Identifiable {
    /// Stable, dotted, never reused: `handshake.features-intersection`, `frame.crc.byte-swapped`.
    public var id: String
    public var requirements: [RequirementID]
    public var level: ConformanceLevel
    /// What the case checks, in one line.
    public var summary: String
    public var steps: [ConformanceStep]
    /// Features the case needs the target to agree to in the case's own handshake; when the target
    /// does not, the verdict is `unsupported`.
    public var needs: FeatureFlags

    public init(
        _ id: String, _ requirements: [RequirementID], _ level: ConformanceLevel, _ summary: String,
        needs: FeatureFlags = [], steps: [ConformanceStep]
    ) {
        self.id = id
        self.requirements = requirements
        self.level = level
        self.summary = summary
        self.needs = needs
        self.steps = steps
    }

    /// The network case of a frame vector made outside the catalog (a fuzzed input): its bytes
    /// sent on a connection, and what a receiver must do with them, as the catalog's vector cases
    /// judge the golden vectors; nil when the network cannot show it.
    public static func sending(_ vector: FrameVector, group: String) -> ConformanceCase? {
        VectorCases.conformanceCase(vector, group: group)
    }

    /// The spec section the case belongs to: that of its first requirement.
    public var section: SpecSection { SpecSection(requirements.first ?? .frame1) }

    /// Whether the case judges how soon the target answers (a prompt ACK, the idle close), on the
    /// suite's clock.
    var isTimed: Bool {
        steps.contains { step in
            switch step {
            case .expect(.promptAck), .expect(.idleClose): true
            default: false
            }
        }
    }

    /// Every transmission of the case, in order.
    public var transmissions: [Transmission] {
        steps.compactMap { if case let .send(transmission) = $0 { transmission } else { nil } }
    }
}
