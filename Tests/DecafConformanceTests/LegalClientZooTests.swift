import DecafConformance
import DecafPeer
import DecafSession
import DecafTestSupport
import Testing

/// The zoo of legal clients: the reference client with the choices the brief leaves a client
/// (`ClientChoice`), each alone and all together, passes every case of the client suite, judged
/// in memory as the diagnosis judges its models. A failure here is a false verdict of the suite's.
/// Each member judges the whole catalog in memory: one at a time, off the cooperative threads.
@Suite("the zoo of legal clients", .serialized, .timeLimit(.minutes(3)))
struct LegalClientZooTests {
    static let members: [Set<ClientChoice>] = ClientChoice.allCases.map { [$0] } + [Set(ClientChoice.allCases)]

    /// A pass with a note is a verdict too: the reference's choices earn none.
    @Test("each legal client passes every case of the client suite, without a note", arguments: members)
    func passes(_ choices: Set<ClientChoice>) async throws {
        var testee = ReferenceClientTestee()
        testee.choices = choices
        let member = testee
        let failures = try await ChildProcess.offCooperativeThreads {
            try ClientCatalog.cases.compactMap { testCase in
                let verdict = try SimulatedClientCase(testCase, against: member).verdict()
                return [.pass, .unsupported].contains(verdict.kind) ? nil : "\(testCase.id): \(verdict.kind.rawValue) \(verdict.reason)"
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
