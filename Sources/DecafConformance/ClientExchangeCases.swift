import DecafWire

/// Client cases of the exchange (EX-1 to EX-5, REPLAY-1): what the client acknowledges, what it
/// never acknowledges, repeats, read receipts and the server's ERROR.
enum ClientExchangeCases {
    static var cases: [ClientCase] {
        let data1 = SequenceNumber(category: .normal, counter: 1)
        let sentinel = ClientCaseSteps.payload(ClientCaseSteps.sentinelText)
        func script(_ steps: [ServerStep], features: FeatureFlags = .basic, acks: AckPolicy = .always) -> ServerScript {
            ServerScript(features: features, connections: [ConnectionScript(acks: acks, steps: steps + ClientCaseSteps.closing)])
        }
        let oneData = script([ClientCaseSteps.data(1, "hello from the server")])
        let repeated = script([ClientCaseSteps.data(1, "only once, please"), .repeatLast])
        let repeatedLate = script([ClientCaseSteps.data(1, "my ACK got lost"), .pause(.milliseconds(300)), .repeatLast])
        let receipt = ReadReceipt(sequence: SequenceNumber(category: .normal, counter: 1)).field
        let receiptFrame = CaseFrames.header(.readReceipt, 0x100)
        let errorThenClose = ServerScript(connections: [
            ConnectionScript(steps: [ClientCaseSteps.frame(CaseFrames.header(.control, 7), [ErrorReport(code: 12, reason: "timestamp out of window").field]),
                                     .pause(.milliseconds(300)), .close, .pause(.milliseconds(200)), .finish]),
        ])
        let unknownType = script([ClientCaseSteps.frame(CaseFrames.header(MessageType(rawValue: 9), 5, category: .normal), [TLVField(tag: .text, text: "from the future")])])
        return [
            ClientCase("client.exchange.data-acknowledged", [.ex1], .required, "acknowledges a DATA frame exactly once, in EX-1's form",
                       script: oneData, check: .acknowledgedOnce(data1, session: CaseFrames.session)),
            ClientCase("client.exchange.data-delivered", [.tlv1, .ex1], .required, "delivers a DATA frame's TLV bytes exactly",
                       script: oneData, check: .delivered([ClientCaseSteps.payload("hello from the server"), sentinel])),
            ClientCase("client.exchange.control-acknowledged", [.ex1], .required, "acknowledges a CONTROL frame exactly once",
                       script: script([ClientCaseSteps.frame(CaseFrames.header(.control, 5), [TLVField(tag: .userStatus, bytes: [1])])]),
                       check: .acknowledgedOnce(SequenceNumber(category: .control, counter: 5), session: CaseFrames.session)),
            ClientCase("client.exchange.read-receipt-acknowledged", [.ex1, .ex4], .required, "acknowledges a READ_RECEIPT frame exactly once",
                       script: script([ClientCaseSteps.frame(receiptFrame, [receipt])]),
                       check: .acknowledgedOnce(receiptFrame.sequence, session: CaseFrames.session)),
            ClientCase("client.exchange.read-receipt-reported", [.ex4], .recommended, "reports the server's READ_RECEIPT for its message",
                       script: ServerScript(features: [.basic, .readReceipt], connections: [ConnectionScript(steps: [.awaitData(1), .awaitEvent("receipt"), .finish])]),
                       messages: [ClientCaseSteps.message], needs: .readReceipt, check: .receiptReported),
            ClientCase("client.exchange.heartbeat-answered", [.ex2], .required, "answers the server's HEARTBEAT with an ACK of its sequence",
                       script: script([ClientCaseSteps.frame(CaseFrames.header(.heartbeat, 3))]),
                       check: .acknowledgedOnce(SequenceNumber(category: .heartbeat, counter: 3), session: CaseFrames.session)),
            ClientCase("client.exchange.ack-not-acknowledged", [.ex3], .required, "never acknowledges an ACK, its own or a stray one",
                       script: script([.awaitData(1), ClientCaseSteps.frame(CaseFrames.header(.ack, 0x777))]),
                       messages: [ClientCaseSteps.message], check: .neverAcksAcks),
            ClientCase("client.exchange.unknown-type-not-acknowledged", [.ex3, .frame4], .required,
                       "does not acknowledge a frame of an undefined message type",
                       script: unknownType, check: .notAcknowledged(SequenceNumber(category: .normal, counter: 5))),
            ClientCase("client.exchange.unknown-type-kept-open", [.frame4], .required,
                       "skips a frame of an undefined message type and keeps the connection",
                       script: unknownType, check: .keptOpen),
            ClientCase("client.exchange.repeat-acknowledged", [.replay1], .required, "acknowledges a repeated DATA frame again",
                       script: repeated, check: .acknowledgedTimes(data1, 2)),
            ClientCase("client.exchange.repeat-delivered-once", [.replay1], .required, "delivers a repeated DATA frame once",
                       script: repeated, check: .delivered([ClientCaseSteps.payload("only once, please"), sentinel])),
            ClientCase("client.exchange.late-repeat-acknowledged", [.replay1], .required,
                       "acknowledges a DATA frame repeated 300 ms later, as a server whose ACK was lost does",
                       script: repeatedLate, check: .acknowledgedTimes(data1, 2)),
            ClientCase("client.exchange.late-repeat-delivered-once", [.replay1], .required, "delivers a DATA frame repeated 300 ms later once",
                       script: repeatedLate, check: .delivered([ClientCaseSteps.payload("my ACK got lost"), sentinel])),
            ClientCase("client.exchange.repeat-no-second-receipt", [.ex4], .required,
                       "with READ_RECEIPT agreed, sends no READ_RECEIPT for a repeated DATA frame",
                       script: ServerScript(features: [.basic, .readReceipt], connections: [
                           ConnectionScript(steps: [ClientCaseSteps.data(1, "read me once"), .awaitAck(data1), .repeatLast] + ClientCaseSteps.closing),
                       ]),
                       needs: .readReceipt, check: .noReceiptForRepeat(data1)),
            ClientCase("client.exchange.same-sequence-new-timestamp", [.replay1, .seq1], .recommended,
                       "delivers two DATA frames with one sequence and different timestamps: a repeat is the same sequence and timestamp",
                       script: script([ClientCaseSteps.data(1, "first"), ClientCaseSteps.data(1, "second", skew: -5)]),
                       check: .delivered([ClientCaseSteps.payload("first"), ClientCaseSteps.payload("second"), sentinel])),
            ClientCase("client.exchange.error-acknowledged", [.ex1], .required, "acknowledges the server's CONTROL frame carrying an ERROR",
                       script: errorThenClose, check: .acknowledgedOnce(SequenceNumber(category: .control, counter: 7), session: CaseFrames.session)),
            ClientCase("client.exchange.error-reported", [.ex5], .recommended, "reports the server's ERROR with its code",
                       script: errorThenClose, check: .serverErrorReported(code: 12)),
            ClientCase("client.exchange.message-acknowledged", [.ex1, .ex7], .required, "reports each of three messages acknowledged once",
                       messages: ClientCaseSteps.messages(3), endsInput: true, check: .messagesAcknowledged),
            ClientCase("client.exchange.many-messages", [.ex1, .seq1], .required, "sends 50 messages, each acknowledged once",
                       messages: ClientCaseSteps.messages(50), endsInput: true, check: .messagesAcknowledged),
            ClientCase("client.exchange.text-body", [.tlv1, .tlv4], .required, "sends a text as one TEXT field (0x1001) of UTF-8",
                       messages: [ClientCase.Message("m1", text: "héllo, wörld ✓")], endsInput: true,
                       check: .messageBodies([ClientCaseSteps.payload("héllo, wörld ✓")])),
            ClientCase("client.exchange.payload-body", [.tlv1, .tlv2, .tlv4], .required,
                       "sends given TLV bytes (a container, an unknown tag) exactly as its body",
                       messages: [ClientCase.Message("m1", payload: Self.nestedPayload)], endsInput: true, check: .messageBodies([Self.nestedPayload])),
            ClientCase("client.exchange.empty-body", [.crc1], .required, "sends an empty body with checksum 0",
                       messages: [ClientCase.Message("m1", payload: [])], endsInput: true, check: .messageBodies([[]])),
            ClientCase("client.exchange.sequences-distinct", [.seq1, .replay1], .required,
                       "sends different messages under different sequences, so no server takes one for a repeat",
                       messages: ClientCaseSteps.messages(10), endsInput: true, check: .sequencesDistinct),
        ]
    }

    /// A container holding a TEXT field and an unknown tag, then a CUSTOM field.
    static let nestedPayload = TLVEncoder.encode([
        .container([TLVField(tag: .text, text: "inside"), TLVField(tag: TLVTag(0x7777), bytes: [0xCA, 0xFE])]),
        TLVField(tag: .custom, bytes: [1, 2, 3]),
    ])
}
