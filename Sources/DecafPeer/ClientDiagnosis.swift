import DecafConformance
import DecafDiagnosis
import DecafSession

/// The diagnosis of a client run: which faults of the reference client (`ClientFault`), planted
/// together in the client judged in memory (`SimulatedClientCase`), give the verdicts the client
/// got (`DefectSearch`). The reference client is configured as `decaf testee client` is, so a
/// failure that comes of another choice of the testee's (its timeouts, the features it offers)
/// is left unexplained, not forced on a fault.
public enum ClientDiagnosis {
    /// The faults a diagnosis draws on: those that break a requirement. A client that reconnects
    /// without a backoff, without jitter, or drops an idle connection breaks none (recommended
    /// cases show it), and playing its reconnect storms in memory costs more than the whole run.
    public static let catalog = ClientFault.all.filter { !$0.breaks.isEmpty }

    /// The defects of the client whose run is `run`, of `cases` (the catalog the run drew on).
    public static func diagnose(_ run: ConformanceRun, cases: [ClientCase]) -> Diagnosis {
        let byID = Dictionary(cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let results = run.results.filter { byID[$0.testCase.id] != nil }
        let ran = results.map { byID[$0.testCase.id]! }
        @Sendable func judge(_ faults: [ClientFault], _ index: Int) -> Verdict { verdict(of: ran[index], with: Set(faults)) }
        let searched = results.indices.map { index in
            DefectSearch<ClientFault>.Case(id: ran[index].id, size: ran[index].inputSize,
                                           actual: results[index].verdict, requirements: ran[index].requirements)
        }
        return DefectSearch.diagnose(cases: searched, catalog: catalog,
                                     judge: judge, same: { model, got, _ in model.isSame(as: got) })
    }

    /// The verdict of the reference client with `faults` planted, configured as `decaf testee
    /// client` is, on `clientCase`, judged in memory.
    public static func verdict(of clientCase: ClientCase, with faults: Set<ClientFault>) -> Verdict {
        do {
            return try SimulatedClientCase(clientCase, against: ReferenceClientTestee(faults: faults)).verdict()
        } catch {
            return Verdict(.harnessError, "the client in memory could not be set up: \(error)")
        }
    }
}

extension ClientFault: CataloguedMistake {
    /// What the client does wrong.
    public var cause: String { summary }
}

extension ClientCase {
    /// The bytes the case gives the testee: the scripted server's and the messages' to send.
    var inputSize: Int {
        script.connections.flatMap(\.transmissions).reduce(0) { $0 + $1.bytes.count } + messages.reduce(0) { $0 + $1.payload.count }
    }
}
