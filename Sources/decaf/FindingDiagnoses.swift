import DecafConformance
import DecafFuzz
import DecafPeer
import DecafSession

/// The diagnosis each network campaign names its findings' defects with: the server's and the
/// client's catalogs (`ServerDiagnosis`, `ClientDiagnosis`), each mistake's model judged in memory
/// as the campaign judges the target. Replays use the same, so a finding's signature is fired again.
enum FindingDiagnoses {
    /// The reference peer with each fault or codec mistake of the server catalog; a replay
    /// recalls the mistakes its finding's `signature` names.
    static func server(_ settings: FuzzSettings, recalling signature: String? = nil) -> FindingDiagnosis<ServerFuzzCase> {
        let profile = ServerFuzzer.profile(for: settings)
        let timeout = settings.timeout
        return recalling(signature, FindingDiagnosis(catalog: ServerDiagnosis.catalog) { input, mistakes in
            ServerDiagnosis.verdict(of: input.conformanceCase, with: mistakes.compactMap { $0 as? ServerTargets.Breakage },
                                    identity: input.identity, profile: profile, timeout: timeout)
        })
    }

    /// The reference client with each fault of the client catalog; a replay recalls the
    /// mistakes its finding's `signature` names.
    static func client(recalling signature: String? = nil) -> FindingDiagnosis<ClientCase> {
        recalling(signature, FindingDiagnosis(catalog: ClientDiagnosis.catalog) { clientCase, mistakes in
            ClientDiagnosis.verdict(of: clientCase, with: Set(mistakes.compactMap { $0 as? ClientFault }))
        })
    }

    private static func recalling<Input>(_ signature: String?, _ diagnosis: FindingDiagnosis<Input>) -> FindingDiagnosis<Input> {
        if let signature { diagnosis.recall(signature) }
        return diagnosis
    }
}
