import DecafWire

/// Client cases of reconnecting: after a close, a reset or a refused connection the client comes
/// back, with waits that grow, stop growing at its longest wait and carry jitter, and resends what
/// the lost connection cut off. The brief asks for none of it, so most are recommended; a message
/// cut off must still be settled (EX-7), and a repeat on the new connection is still a repeat
/// (REPLAY-1).
enum ClientReconnectCases {
    static var cases: [ClientCase] {
        let comeBack = ConnectionScript(steps: [.finish])
        let closeAfterHandshake = ServerScript(connections: [ConnectionScript(steps: [.pause(.milliseconds(50)), .close]), comeBack])
        let cutOff = ServerScript(connections: [
            ConnectionScript(acks: .neverData, steps: [.awaitData(1), .close]),
            ConnectionScript(steps: [.awaitData(1), .pause(.milliseconds(200)), .finish]),
        ])
        let closeAtOnce = ConnectionScript(steps: [.close])
        let data1 = SequenceNumber(category: .normal, counter: 1)
        let repeatAfterReconnect = ServerScript(connections: [
            ConnectionScript(steps: [ClientCaseSteps.data(1, "once, on whichever connection"), .awaitAck(data1), .close]),
            ConnectionScript(steps: [.repeatLast] + ClientCaseSteps.closing),
        ])
        // A first wait of 4 s: jitter in its upper half spreads the returns over up to 2 s, and the
        // judge asks for a tenth of the wait, 400 ms, well beyond the spread a loaded machine gives
        // clients without jitter that wake at the same moment (a few hundred milliseconds at worst).
        var jitter = ClientSettings.suggested
        jitter.reconnectBase = .seconds(4)
        jitter.reconnectMax = .seconds(8)
        let instances = 8
        let cutTogether = ConnectionScript(steps: [.awaitConnections(instances), .pause(.milliseconds(100)), .close])
        return [
            ClientCase("client.reconnect.after-close", [.reconnect1], .recommended, "connects again after the server closed the connection",
                       script: closeAfterHandshake, check: .reconnects),
            ClientCase("client.reconnect.after-reset", [.reconnect1], .recommended, "connects again after the connection was reset",
                       script: ServerScript(connections: [ConnectionScript(steps: [.pause(.milliseconds(50)), .reset]), comeBack]), check: .reconnects),
            ClientCase("client.reconnect.after-refused", [.reconnect1], .recommended, "keeps trying while connections are refused, and connects once they are not",
                       script: ServerScript(connections: [ConnectionScript(steps: [.refuseConnections(for: .milliseconds(600)), .close]), comeBack]),
                       check: .reconnects),
            ClientCase("client.reconnect.refused-at-start", [.reconnect1], .recommended, "keeps trying when its first connection is refused",
                       script: ServerScript(refusedAtStart: .milliseconds(500), connections: [comeBack]), messages: [ClientCaseSteps.message],
                       check: .reconnects),
            ClientCase("client.reconnect.backoff-grows", [.reconnect1], .recommended, "waits longer after each failed attempt (exponential or Fibonacci)",
                       script: ServerScript(connections: Array(repeating: closeAtOnce, count: 6) + [comeBack]), check: .backoffGrows),
            ClientCase("client.reconnect.backoff-capped", [.reconnect1], .recommended, "never waits longer than its longest wait between attempts",
                       script: ServerScript(connections: Array(repeating: closeAtOnce, count: 8) + [comeBack]), check: .backoffCapped),
            ClientCase("client.reconnect.no-hammering", [.reconnect1], .recommended,
                       "makes no more than 10 attempts in a second against a server that closes every connection at once",
                       script: ServerScript(connections: [
                           // The client's return, then a second and more of its attempts: a client that never
                           // comes back shows no pace, and a loaded machine may delay its first return.
                           ConnectionScript(handshake: .unanswered, steps: [.close, .awaitConnections(2), .pause(.milliseconds(1200)), .finish]),
                           ConnectionScript(handshake: .unanswered, steps: [.close]),
                       ]), check: .noHammering),
            ClientCase("client.reconnect.jitter", [.reconnect1], .recommended,
                       "\(instances) clients cut off together do not come back together: their waits carry jitter",
                       script: ServerScript(connections: Array(repeating: cutTogether, count: instances)
                           + [ConnectionScript(steps: [.awaitConnections(2 * instances), .pause(.milliseconds(100)), .finish])]),
                       instances: instances, suggested: jitter, check: .jitter),
            ClientCase("client.reconnect.handshake-again", [.hs1], .recommended, "starts a new connection with a VERSION_REQUEST",
                       script: closeAfterHandshake, check: .handshakesAgain),
            ClientCase("client.reconnect.message-settled", [.ex7], .required,
                       "a message cut off by a lost connection is acknowledged on a new one, or reported failed",
                       script: cutOff, messages: [ClientCaseSteps.message], endsInput: true, check: .messageSettled),
            ClientCase("client.reconnect.repeat-delivered-once", [.replay1], .required,
                       "a DATA frame repeated on the next connection, with its sequence and timestamp, is acknowledged there and not delivered again",
                       script: repeatAfterReconnect,
                       check: .repeatAcrossConnections(data1, payload: ClientCaseSteps.payload("once, on whichever connection"))),
            ClientCase("client.reconnect.same-sequence", [.ex7, .replay1], .recommended,
                       "a message cut off by a lost connection goes out on the new one with its sequence and timestamp",
                       script: cutOff, messages: [ClientCaseSteps.message], endsInput: true, check: .resendsOnNewConnection),
        ]
    }
}
