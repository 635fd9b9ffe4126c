import DecafConformance
import DecafSession
import DecafWire

/// The client suite's own mutation coverage: for each case, the faults of the reference client
/// (`decaf testee client --fault`) under which it fails naming a requirement the fault breaks,
/// among those that break a requirement the case checks: a fault that spoils every frame the client sends fails every case, and is the
/// target of none but those about what it spoils. A required case no target fails would pass a
/// client that gets its rule wrong. Every case is judged against the client in memory
/// (`SimulatedClientCase`), the faultless client first: a case it does not pass has no target
/// worth the name, and says so.
public struct ClientTargets: Sendable {
    /// One case of the catalog: its targets, and how the faultless client fared.
    public struct Target: Sendable {
        public let id: String
        public let level: ConformanceLevel
        /// The faults whose client fails the case, among those that break a requirement it checks.
        public let faults: [ClientFault]
        /// What the faultless client got, when it did not pass (then the targets prove nothing).
        public let reference: Verdict?
    }

    /// Each case's targets, in the catalog's order.
    public let targets: [Target]

    /// Judges `cases` against the faultless reference client and against it with each of `faults`.
    public init(cases: [ClientCase] = ClientCatalog.cases, faults: [ClientFault] = ClientFault.all) throws {
        targets = try cases.map { testCase in
            let reference = try SimulatedClientCase(testCase, against: ReferenceClientTestee()).verdict()
            let failing = try faults.filter { fault in
                guard !Set(fault.breaks).isDisjoint(with: testCase.requirements) else { return false }
                let verdict = try SimulatedClientCase(testCase, against: ReferenceClientTestee(faults: [fault])).verdict()
                return verdict.kind.isFailure && !Set(fault.breaks).isDisjoint(with: verdict.requirements)
            }
            return Target(id: testCase.id, level: testCase.level, faults: failing, reference: reference.kind.isPass ? nil : reference)
        }
    }

    /// The required cases no target fails, or that the faultless client does not pass.
    public var missing: [String] {
        targets.filter { $0.level == .required && ($0.faults.isEmpty || $0.reference != nil) }.map(\.id)
    }
}
