import DecafWire

/// Client cases of retransmission (EX-7): a withheld ACK brings the same frame back after the
/// client's timeout, at most its retries, then the message is reported failed; nothing is resent
/// after its ACK, and a late ACK is harmless.
enum ClientRetransmitCases {
    static var cases: [ClientCase] {
        let message = [ClientCaseSteps.message]
        let firstWithheld = ServerScript(connections: [ConnectionScript(acks: AckPolicy(withheldSends: 1))])
        let neverAcknowledged = ServerScript(connections: [
            ConnectionScript(acks: .neverData, steps: [.awaitEvent("failed"), .pauseAckTimeouts(2), .pause(.seconds(1)), .finish]),
        ])
        func resend(_ id: String, _ requirements: [RequirementID], _ level: ConformanceLevel, _ summary: String, _ aspect: ClientCheck.ResendAspect) -> ClientCase {
            ClientCase(id, requirements, level, summary, script: firstWithheld, messages: message, endsInput: true, check: .resend(aspect))
        }
        func givesUp(_ id: String, _ level: ConformanceLevel, _ summary: String, _ aspect: ClientCheck.GiveUpAspect) -> ClientCase {
            ClientCase(id, [.ex7], level, summary, script: neverAcknowledged, messages: message, check: .givesUp(aspect))
        }
        return [
            resend("client.retransmit.same-sequence", [.ex7], .required, "sends an unacknowledged message again with the same sequence", .sameSequence),
            resend("client.retransmit.same-body", [.ex7], .required, "sends an unacknowledged message again with the same body", .sameBody),
            resend("client.retransmit.same-timestamp", [.ex7, .replay1], .recommended,
                   "sends an unacknowledged message again with the same timestamp, so the server sees a repeat (REPLAY-1)", .sameTimestamp),
            resend("client.retransmit.after-timeout", [.ex7], .required, "sends again after its ACK timeout, neither much sooner nor much later",
                   .afterTimeout),
            givesUp("client.retransmit.retries-then-stop", .required, "sends a message never acknowledged 1 + retries times, and no more", .sendCount),
            givesUp("client.retransmit.failure-reported", .required, "reports a message never acknowledged as failed", .reported),
            givesUp("client.retransmit.failure-after-last-timeout", .recommended,
                    "reports the failure only once the last resend's ACK timeout has passed", .afterLastTimeout),
            ClientCase("client.retransmit.nothing-after-ack", [.ex7], .required, "sends nothing again once the message is acknowledged",
                       script: ServerScript(connections: [ConnectionScript(steps: [.awaitData(1), .pauseAckTimeouts(3), .pause(.milliseconds(500)), .finish])]),
                       messages: message, check: .noResendAfterAck),
            ClientCase("client.retransmit.slow-ack", [.ex7], .required, "waits for an ACK that comes after half its ACK timeout instead of resending",
                       script: ServerScript(connections: [ConnectionScript(acks: AckPolicy(delayInAckTimeouts: 0.5),
                                                                           steps: [.awaitData(1), .pauseAckTimeouts(3), .pause(.milliseconds(500)), .finish])]),
                       messages: message, check: .noResendAfterAck),
            ClientCase("client.retransmit.late-ack-harmless", [.ex7], .required,
                       "takes an ACK that arrives after the resend, and a second ACK, without harm",
                       script: ServerScript(connections: [ConnectionScript(acks: AckPolicy(withheldSends: 1, duplicates: 1),
                                                                           steps: [.awaitData(2), .pauseAckTimeouts(2)] + ClientCaseSteps.closing)]),
                       messages: message, check: .lateAckHarmless),
            ClientCase("client.retransmit.only-unacknowledged", [.ex7], .required, "sends again only the message whose ACK is missing",
                       script: ServerScript(connections: [ConnectionScript(acks: AckPolicy(withheldSends: 1, onlyMessage: 2))]),
                       messages: ClientCaseSteps.messages(2), endsInput: true, check: .onlyUnacknowledgedResent),
        ]
    }
}
