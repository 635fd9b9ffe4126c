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
        for (index, connection) in script.connections.enumerated() {
            let which = index == script.connections.count - 1 && index > 0 ? "connection \(index + 1) and later" : "connection \(index + 1)"
            lines.append("\(which): handshake \(connection.handshake), ACKs \(connection.acks == .always ? "always" : "\(connection.acks)")")
            for (number, step) in connection.steps.enumerated() {
                guard case let .send(transmission) = step else {
                    lines.append("  \(number + 1). \(step)")
                    continue
                }
                lines.append("  \(number + 1). send \(transmission.bytes.count) bytes: \(transmission.label)")
                lines.append("     " + Hex.string(transmission.bytes.prefix(4096)) + (transmission.bytes.count > 4096 ? "..." : ""))
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
