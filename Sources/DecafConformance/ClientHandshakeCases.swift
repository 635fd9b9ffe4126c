import DecafWire

/// Client cases of the version handshake (HS-1, HS-2, VER-3): the request, the two orders of the
/// answer, the agreed features honoured, another major, and a server that does not answer.
enum ClientHandshakeCases {
    static var cases: [ClientCase] {
        let message = [ClientCaseSteps.message]
        let receiptsAgreed = ServerScript(features: [.basic, .readReceipt], connections: [
            ConnectionScript(steps: [ClientCaseSteps.data(1, "please read me")] + ClientCaseSteps.closing),
        ])
        return [
            ClientCase("client.handshake.first-frame", [.hs1], .recommended, "the first frame is CONTROL carrying a VERSION_REQUEST",
                       messages: message, endsInput: true, check: .firstFrameIsVersionRequest),
            ClientCase("client.handshake.request-offers-basic", [.hs1], .recommended, "the VERSION_REQUEST offers major 1 and BASIC",
                       messages: message, endsInput: true, check: .requestOffersBasic),
            ClientCase("client.handshake.version-1.0-until-agreed", [.ver3], .required,
                       "frames written before the VERSION_RESPONSE arrives carry version 1.0",
                       script: ServerScript(connections: [ConnectionScript(handshake: .late(.milliseconds(300)))]),
                       messages: message, endsInput: true, check: .headersBeforeAgreement),
            ClientCase("client.handshake.ack-then-response", [.hs2], .required, "takes the ACK, then the VERSION_RESPONSE, and sends its message",
                       messages: message, endsInput: true, check: .messagesAcknowledged),
            ClientCase("client.handshake.response-then-ack", [.hs2], .required,
                       "takes the VERSION_RESPONSE before the ACK of its request (HS-2: either order)",
                       script: ServerScript(connections: [ConnectionScript(handshake: .responseFirst(pause: .milliseconds(100)))]),
                       messages: message, endsInput: true, check: .messagesAcknowledged),
            ClientCase("client.handshake.response-and-ack-together", [.hs2, .frame3], .required,
                       "takes the VERSION_RESPONSE and the ACK in one read, the response first",
                       script: ServerScript(connections: [ConnectionScript(handshake: .together)]),
                       messages: message, endsInput: true, check: .messagesAcknowledged),
            ClientCase("client.handshake.slow-response", [.hs2], .required, "waits for a VERSION_RESPONSE that comes 300 ms after the ACK",
                       script: ServerScript(connections: [ConnectionScript(handshake: .late(.milliseconds(300)))]),
                       messages: message, endsInput: true, check: .messagesAcknowledged),
            ClientCase("client.handshake.response-acknowledged", [.ex1, .hs2], .required, "acknowledges the VERSION_RESPONSE exactly once",
                       script: ServerScript(connections: [ConnectionScript(steps: ClientCaseSteps.closing)]), check: .responseAcknowledgedOnce),
            ClientCase("client.handshake.second-response-acknowledged", [.ex1], .required,
                       "acknowledges a second VERSION_RESPONSE and keeps the connection",
                       script: ServerScript(connections: [ConnectionScript(steps: [
                           ClientCaseSteps.frame(CaseFrames.header(.control, 9), [VersionResponse(version: .v1_0, features: .basic).field]),
                       ] + ClientCaseSteps.closing)]),
                       check: .acknowledgedOnce(SequenceNumber(category: .control, counter: 9), session: CaseFrames.session)),
            ClientCase("client.handshake.no-compression-unless-agreed", [.hs2], .required,
                       "sends no compressed body when the server did not agree to COMPRESSION",
                       messages: [ClientCase.Message("m1", text: String(repeating: "compressible ", count: 200))], endsInput: true,
                       check: .noCompressedBodies),
            ClientCase("client.handshake.compression-when-agreed", [.zlib1, .hs2], .required,
                       "once COMPRESSION is agreed, a body it marks compressed is one valid zlib stream (compressing is its choice)",
                       script: ServerScript(features: [.basic, .compression]),
                       messages: [ClientCase.Message("m1", text: String(repeating: "compressible ", count: 200))], endsInput: true,
                       needs: .compression, check: .messagesAcknowledged),
            ClientCase("client.handshake.no-read-receipts-unless-agreed", [.ex4, .hs2], .required,
                       "sends no READ_RECEIPT when the server did not agree to READ_RECEIPT",
                       script: ServerScript(connections: [ConnectionScript(steps: [ClientCaseSteps.data(1, "no receipt, please")] + ClientCaseSteps.closing)]),
                       check: .noReadReceipts),
            ClientCase("client.handshake.read-receipts-when-agreed", [.ex4], .optional,
                       "a READ_RECEIPT, once READ_RECEIPT is agreed, names the DATA frame it reads, once",
                       script: receiptsAgreed, needs: .readReceipt, check: .readReceiptFor(SequenceNumber(category: .normal, counter: 1))),
            ClientCase("client.handshake.other-major", [.hs2, .ver1], .recommended,
                       "gives up on a server that answers with another major instead of trying again and again",
                       script: ServerScript(version: ProtocolVersion(major: 2, minor: 0)), messages: message, endsInput: true,
                       check: .stopsAfterOtherMajor),
            ClientCase("client.handshake.unanswered", [.ex7, .hs2], .recommended,
                       "sends the VERSION_REQUEST again, or connects again, when no answer comes within its ACK timeout",
                       script: ServerScript(connections: [ConnectionScript(handshake: .unanswered, steps: [.goSilent, .pauseAckTimeouts(2), .pause(.seconds(1)), .finish])]),
                       messages: message, check: .retriesUnansweredHandshake),
        ]
    }
}
