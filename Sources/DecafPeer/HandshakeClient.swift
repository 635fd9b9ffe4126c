import DecafNIO
import DecafWire

/// Performs the version handshake against a server, as a well-behaved client does (HS-1): a
/// CONTROL frame carrying VERSION_REQUEST with version 1.0 in its header (VER-3), then the ACK and
/// the VERSION_RESPONSE, in either order (HS-2).
public enum HandshakeClient {
    public static func run(
        host: String, port: Int, offer: VersionRequest, session: SessionID = SessionID(rawValue: 1),
        timeout: Duration = .seconds(5), now: UInt32
    ) async throws -> HandshakeReport {
        let client = try await WireClient.connect(host: host, port: port)
        do {
            let report = try await exchange(client, offer: offer, session: session, timeout: timeout, now: now)
            await client.close()
            return report
        } catch {
            await client.close()
            throw error
        }
    }

    private static func exchange(
        _ client: WireClient, offer: VersionRequest, session: SessionID, timeout: Duration, now: UInt32
    ) async throws -> HandshakeReport {
        var report = HandshakeReport(offered: offer)
        let header = FrameHeader(messageType: .control, sequence: SequenceNumber(category: .control, counter: 1), timestamp: now, sessionID: session)
        let clock = ContinuousClock()
        let start = clock.now
        try await client.send(OutgoingFrame(header: header, fields: [offer.field]))
        while !(report.acknowledged && report.response != nil) {
            let remaining = timeout - (clock.now - start)
            guard remaining > .zero, let event = await client.next(timeout: remaining) else {
                report.timedOut = true
                break
            }
            switch event {
            case let .frame(frame) where frame.header.messageType == .ack:
                report.acknowledged = report.acknowledged || frame.header.sequence == header.sequence
            case let .frame(frame):
                if frame.header.messageType.isAcknowledged {
                    // The server's frames are owed an ACK too (EX-1), the VERSION_RESPONSE among them.
                    let ack = frame.header.acknowledgement(timestamp: now, version: frame.header.version)
                    try? await client.send(OutgoingFrame(header: ack))
                }
                for field in frame.fields {
                    switch field.interpreted {
                    case let .versionResponse(response):
                        report.response = response
                        report.roundTrip = clock.now - start
                    case let .error(error):
                        report.error = error
                    default:
                        break
                    }
                }
            case let .error(error):
                report.protocolError = error
            case .closed:
                report.closedByServer = true
            }
            if report.error != nil || report.protocolError != nil || report.closedByServer { break }
        }
        return report
    }
}
