import DecafWire

/// Client cases of sequences, sessions and timestamps (SEQ-1, SEQ-2, SESSION-1, TS-1).
enum ClientSequenceCases {
    static var cases: [ClientCase] {
        let session = SessionID(rawValue: 0xBEEF)
        return [
            ClientCase("client.sequence.categories", [.seq1, .seq2], .recommended,
                       "writes VERSION_REQUEST in the CONTROL category and DATA in NORMAL",
                       messages: ClientCaseSteps.messages(3), endsInput: true, check: .categories),
            ClientCase("client.sequence.counters-increment", [.seq1], .recommended, "counts its DATA frames up by one",
                       messages: ClientCaseSteps.messages(10), endsInput: true, check: .countersIncrement),
            ClientCase("client.sequence.session-echoed", [.session1, .ex1], .required,
                       "acknowledges a DATA frame of session 0xBEEF with session 0xBEEF",
                       script: ServerScript(connections: [ConnectionScript(steps: [ClientCaseSteps.data(2, "another session", session: session)] + ClientCaseSteps.closing)]),
                       check: .acknowledgedOnce(SequenceNumber(category: .normal, counter: 2), session: session)),
            ClientCase("client.sequence.timestamps-plausible", [.ts1], .recommended,
                       "stamps its frames with its clock, within a minute of the suite's, so no server's window refuses them",
                       messages: ClientCaseSteps.messages(3), endsInput: true, check: .timestampsPlausible),
        ]
    }
}
