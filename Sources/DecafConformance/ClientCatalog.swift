import DecafWire

/// Every client case, built once. Its checksum (over every case's ID, level, requirements,
/// summary, script, messages and check) names exactly what a report ran.
public enum ClientCatalog {
    public static let cases: [ClientCase] = ClientHandshakeCases.cases + ClientExchangeCases.cases + ClientRetransmitCases.cases
        + ClientReconnectCases.cases + ClientHeartbeatCases.cases + ClientFramingCases.cases + ClientSequenceCases.cases

    /// The case with `id`, if there is one.
    public static func `case`(_ id: String) -> ClientCase? { cases.first { $0.id == id } }

    /// CRC-32 of the catalog's canonical bytes, as `0x` and 8 hex digits.
    public static let checksum: String = {
        var crc: UInt32 = 0
        func update(_ bytes: [UInt8]) { crc = CRC32.checksum(bytes, continuing: crc) }
        for item in cases {
            let head = [item.id, item.level.rawValue, item.requirements.map(\.rawValue).joined(separator: ","), item.summary,
                        "\(item.script.version) \(item.script.features) \(item.script.refusedAtStart.map { "\($0)" } ?? "")",
                        "\(item.endsInput) \(item.heartbeats) \(item.instances) \(item.suggested) \(item.needs)"]
            update(Array(head.joined(separator: "\u{1F}").utf8) + [0x1E])
            for connection in item.script.connections {
                update(Array("\(connection.handshake) \(connection.acks)".utf8))
                for step in connection.steps {
                    if case let .send(transmission) = step {
                        update(Array("send \(transmission.label) \(transmission.split) \(transmission.pause)".utf8))
                        update(transmission.bytes)
                    } else {
                        update(Array("\(step)".utf8))
                    }
                }
            }
            for message in item.messages { update(Array(message.line.utf8)) }
            switch item.check {
            case let .delivered(payloads), let .messageBodies(payloads):
                for payload in payloads { update(payload) }
            default:
                update(Array("\(item.check)".utf8))
            }
        }
        return Hex.format(crc, width: 8)
    }()
}
