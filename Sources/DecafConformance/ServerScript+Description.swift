import DecafWire

/// Scripts in the protocol's words, for `decaf conform repro`.
extension ServerStep: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .send(transmission): "send \(transmission.bytes.count) bytes: \(transmission.label)"
        case .repeatLast: "send the last bytes again, timestamps included (a repeat)"
        case let .pause(duration): "wait \(DurationText.milliseconds(duration, decimals: 0))"
        case let .pauseAckTimeouts(count): "wait \(count.formatted()) of the client's ACK timeouts"
        case let .awaitData(count): "wait for \(count) DATA frame(s) from the client, resends included"
        case let .awaitAck(sequence): "wait for the client's ACK of \(sequence)"
        case let .awaitEvent(name): "wait for the client to report \(name)"
        case let .awaitConnections(count): "wait until \(count) connection(s) have been made"
        case .awaitClosed: "wait for the client to close the connection"
        case let .pauseHeartbeats(count): "wait \(count.formatted()) of the client's heartbeat intervals"
        case .close: "close the connection"
        case .reset: "reset the connection (RST)"
        case .goSilent: "stop answering on this connection"
        case let .refuseConnections(duration): "refuse connections for \(DurationText.milliseconds(duration, decimals: 0))"
        case .finish: "end the case"
        }
    }
}

extension ServerStep {
    /// What a step that waits on the client waits for, in words: "the client's ACK of NORMAL/1".
    var awaited: String? {
        switch self {
        case let .awaitData(count): "\(count) DATA frame(s) from the client"
        case let .awaitAck(sequence): "the client's ACK of \(sequence)"
        case let .awaitEvent(name): "the client to report \(name)"
        case let .awaitConnections(count): "connection \(count) to be made"
        case .awaitClosed: "the client to close the connection"
        default: nil
        }
    }
}

extension HandshakeAnswer: CustomStringConvertible {
    public var description: String {
        switch self {
        case .ackFirst: "the ACK, then the VERSION_RESPONSE"
        case let .responseFirst(pause): "the VERSION_RESPONSE, then the ACK \(DurationText.milliseconds(pause, decimals: 0)) later"
        case let .late(delay): "the ACK, then the VERSION_RESPONSE \(DurationText.milliseconds(delay, decimals: 0)) later"
        case .together: "the VERSION_RESPONSE and the ACK in one write"
        case .bytewise: "the ACK and the VERSION_RESPONSE a byte per write"
        case .unanswered: "no answer"
        }
    }
}

extension AckPolicy: CustomStringConvertible {
    public var description: String {
        var parts: [String] = []
        switch withheldSends {
        case 0: parts.append("every DATA frame acknowledged")
        case .max: parts.append("no DATA frame acknowledged")
        default: parts.append("DATA acknowledged only after \(withheldSends) send(s) went unanswered" + (onlyMessage.map { ", for message \($0) only" } ?? ""))
        }
        if duplicates > 0 { parts.append("each ACK sent \(duplicates) more time(s)") }
        if delayInAckTimeouts > 0 { parts.append("ACKs delayed \(delayInAckTimeouts.formatted()) ACK timeouts") }
        if !heartbeats { parts.append("heartbeats unanswered") }
        return parts.joined(separator: "; ")
    }
}
