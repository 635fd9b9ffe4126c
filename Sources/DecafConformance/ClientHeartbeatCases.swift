import DecafWire

/// Client cases of heartbeats: an idle client keeps its connection alive at its interval and
/// notices a server that stopped answering. The brief leaves both to the client (EX-2 says how a
/// heartbeat is answered, EX-6 that idle connections are closed), so they are recommended.
enum ClientHeartbeatCases {
    static var cases: [ClientCase] {
        let idle = ServerScript(connections: [ConnectionScript(steps: [.pauseHeartbeats(5), .pause(.milliseconds(500)), .finish])])
        return [
            ClientCase("client.heartbeat.idle", [.ex2, .ex6], .recommended, "sends heartbeats at its interval on an idle connection",
                       script: idle, heartbeats: true, check: .heartbeats),
            ClientCase("client.heartbeat.sequence", [.seq1, .seq2], .recommended, "counts its heartbeats up by one in the HEARTBEAT category",
                       script: idle, heartbeats: true, check: .heartbeatSequences),
            ClientCase("client.heartbeat.acks-not-acknowledged", [.ex3], .required, "never acknowledges the ACKs of its heartbeats",
                       script: ServerScript(connections: [ConnectionScript(steps: [.pauseHeartbeats(3)] + ClientCaseSteps.closing)]),
                       heartbeats: true, check: .neverAcksAcks),
            ClientCase("client.heartbeat.dead-server", [.ex2], .recommended,
                       "notices a server that stopped answering, and closes the connection",
                       script: ServerScript(connections: [ConnectionScript(steps: [.goSilent, .awaitClosed, .finish])]),
                       heartbeats: true, check: .deadServerNoticed),
        ]
    }
}
