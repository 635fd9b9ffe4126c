import DecafTestSupport
import DecafWire
import Foundation
import Testing

/// Keeps the normative spec in step with the code.
@Suite("Specs")
struct SpecsTests {
    static let spec = String(decoding: FileManager.default.contents(atPath: FixturePaths.root.appending(path: "Specs/decaf-wire-v1.md").path) ?? Data(), as: UTF8.self)

    @Test("every requirement ID is defined in the spec", arguments: RequirementID.allCases)
    func requirementDefined(_ requirement: RequirementID) {
        #expect(Self.spec.contains("- **\(requirement.rawValue)**"))
    }

    @Test("the error table lists every code with its number and name", arguments: ErrorCode.allCases)
    func errorListed(_ code: ErrorCode) {
        #expect(Self.spec.contains("| \(code.rawValue) | \(code.name) |"))
    }

    @Test("the spec names every known tag with its value")
    func tagsListed() {
        for tag in TLVTag.known {
            #expect(Self.spec.contains("| \(Hex.format(tag.rawValue, width: 4)) | \(tag.name!) |"))
        }
    }
}
