import DecafTestSupport
import Testing

/// What `--list-faults` lists is what a user copies into `--fault`: no name is ever cut, and every
/// requirement column is whole.
@Suite("fault listings")
struct FaultListingTests {
    @Test("every fault a listing names is taken by --fault, and its requirements are whole", arguments: [["peer"], ["testee", "client"], ["testee", "decoder"]])
    func namesAreWhole(_ command: [String]) async throws {
        let listing = try await DecafProcess.run(command + ["--list-faults"])
        #expect(listing.status == 0)
        let lines = listing.output.split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            let name = String(columns[0])
            // Asking for the listing again with the fault given shows that --fault parses the name.
            let taken = try await DecafProcess.run(command + ["--fault", name, "--list-faults"])
            #expect(taken.status == 0, "\(command.joined(separator: " ")) --fault \(name): \(taken.error)")
            let requirements = String(columns[1])
            #expect(requirements == "(no" || requirements.split(separator: ",").allSatisfy { $0.contains("-") && $0.last?.isNumber == true },
                    "a cut requirement column: \(line)")
        }
    }
}
