import DecafWire

extension ClientCase {
    /// What the case does, step by step, to reproduce it by hand: the settings and input the
    /// client gets, then per connection how the server answers and the exact bytes it writes.
    public var reproduction: [String] {
        var lines = ["\(id) [\(level.rawValue)] \(requirements.map(\.rawValue).joined(separator: ", ")): \(summary)"]
        var environment = suggested.environment(host: "127.0.0.1", port: 0, caseID: id, heartbeats: heartbeats)
        environment["DECAF_CONFORM_PORT"] = "<the port the case listens on>"
        lines.append("environment: " + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        if instances > 1 { lines.append("clients: \(instances) at once") }
        for message in messages { lines.append("stdin: \(message.line)") }
        lines.append(endsInput ? "stdin: ends after the messages" : "stdin: stays open until the case ends")
        if let refused = script.refusedAtStart { lines.append("the listener refuses connections for \(DurationText.milliseconds(refused, decimals: 0))") }
        lines.append("server: version \(script.version), features \(script.features.names.joined(separator: ","))")
        // Consecutive connections with one script are shown once.
        var runs: [(first: Int, last: Int, script: ConnectionScript)] = []
        for (index, connection) in script.connections.enumerated() {
            if let last = runs.last, last.script == connection { runs[runs.count - 1].last = index } else { runs.append((index, index, connection)) }
        }
        for (first, last, connection) in runs {
            let which = first == last ? "connection \(first + 1)" : "connections \(first + 1) to \(last + 1)"
            let later = last == script.connections.count - 1 && last > 0 ? (first == last ? " and later" : " and later ones") : ""
            lines.append("\(which)\(later): handshake answered with \(connection.handshake); \(connection.acks)")
            for (number, step) in connection.steps.enumerated() {
                lines.append("  \(number + 1). \(step)")
                if case let .send(transmission) = step {
                    lines.append("     " + Hex.string(transmission.bytes.prefix(4096)) + (transmission.bytes.count > 4096 ? "..." : ""))
                }
            }
        }
        return lines
    }

    /// The bytes the server writes, every connection's steps in order.
    public var sentBytes: [UInt8] {
        script.connections.flatMap(\.steps).flatMap { step -> [UInt8] in
            if case let .send(transmission) = step { transmission.bytes } else { [] }
        }
    }
}
