@testable import DecafConformance
import DecafTestSupport
import DecafWire
import Foundation
import Testing

/// The coverage matrix: every MUST checked by a required case in each role it binds, no required
/// case without a MUST, and Specs/coverage.md showing exactly what `decaf conform coverage` prints.
@Suite("requirement coverage")
struct CoverageMatrixTests {
    @Test("every MUST that binds a role has a required case in that role's suite, and every required case checks a MUST")
    func noGaps() {
        let matrix = CoverageMatrix()
        #expect(matrix.gaps.map { "\($0.requirement.rawValue) \($0.role.rawValue)" } == [])
        #expect(matrix.overreaches.map { "\($0.role.rawValue) \($0.id)" } == [])
    }

    @Test("a MUST with only an optional case is a gap; a required case of a MAY alone is an overreach")
    func flags() {
        let optional = ConformanceCase("x.duplicate", [.tlv3], .optional, "duplicates", steps: [])
        let mayOnly = ConformanceCase("x.window", [.ts1], .required, "window", steps: [])
        let matrix = CoverageMatrix(catalogs: [.client: [optional, mayOnly]])
        #expect(matrix.cell(.tlv3, .client).isGap && matrix.gaps.contains { $0.requirement == .tlv3 && $0.role == .client })
        #expect(matrix.overreaches == [CoverageMatrix.Overreach(role: .client, id: "x.window", requirements: [.ts1])])
        #expect(matrix.text().contains("! TLV-3 is a MUST for a client that no required case checks"))
        #expect(!matrix.cell(.ex7, .server).isGap, "EX-7 does not bind a server")
    }

    @Test("Specs/coverage.md holds what decaf conform coverage prints, and the command exits 0")
    func documented() async throws {
        let run = try await DecafProcess.run(["conform", "coverage"])
        #expect(run.status == 0, "\(run.output.suffix(400))")
        let document = try String(contentsOf: FixturePaths.root.appending(path: "Specs/coverage.md"), encoding: .utf8)
        #expect(document.contains("```text\n" + run.output + "```\n"), "regenerate the block in Specs/coverage.md from decaf conform coverage")
    }
}
