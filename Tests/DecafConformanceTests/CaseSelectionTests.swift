@testable import DecafConformance
import Testing

@Suite("case selection")
struct CaseSelectionTests {
    @Test("* matches any run of characters, and only whole IDs match")
    func patterns() {
        #expect(CaseSelection.matches("handshake.basic-only", "handshake.*"))
        #expect(CaseSelection.matches("handshake.basic-only", "*basic*"))
        #expect(CaseSelection.matches("handshake.basic-only", "handshake.basic-only"))
        #expect(CaseSelection.matches("wire.checksum.207", "wire.*.207"))
        #expect(!CaseSelection.matches("handshake.basic-only", "handshake"))
        #expect(!CaseSelection.matches("handshake.basic-only", "*.basic"))
        #expect(!CaseSelection.matches("wire.checksum.207", "wire.*.208"))
    }

    @Test("a pattern that matches nothing is an error, not an empty run")
    func mistypedPattern() throws {
        let cases = ConformanceCatalog().cases
        #expect(throws: SelectionError.patternMatchesNothing("handshake.nope*")) {
            try CaseSelection(patterns: ["handshake.*", "handshake.nope*"]).apply(to: cases)
        }
        let selected = try CaseSelection(patterns: ["handshake.*"], levels: [.recommended]).apply(to: cases)
        #expect(!selected.isEmpty)
        #expect(selected.allSatisfy { $0.id.hasPrefix("handshake.") && $0.level == .recommended })
    }
}
