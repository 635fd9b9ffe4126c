import DecafSession
import DecafWire
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Performs the version handshake against a server with a `ClientSession`, as a well-behaved
/// client does (HS-1): a CONTROL frame carrying VERSION_REQUEST with version 1.0 in its header
/// (VER-3), the VERSION_RESPONSE acknowledged (EX-1), and the server's ACK and response taken in
/// either order (HS-2). It waits for both, or for the timeout.
public enum HandshakeClient {
    /// Throws when no connection can be made within `timeout`; everything else is in the report.
    public static func run(
        host: String, port: Int, offer: VersionRequest, session: SessionID = SessionID(rawValue: 1),
        timeout: Duration = .seconds(5), now: @escaping @Sendable () -> UInt32,
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> HandshakeReport {
        var configuration = ClientConfiguration()
        configuration.connectTimeout = timeout
        configuration.session = session
        configuration.version = offer.version
        configuration.features = offer.features
        configuration.reconnect = .none
        configuration.ackTimeout = timeout
        configuration.retries = 0
        let report = NIOLockedValueBox(HandshakeReport(offered: offer))
        let problem = NIOLockedValueBox<String?>(nil)
        let eventLoop = group.next()
        let box = NIOLockedValueBox<ClientConnection?>(nil)
        let connection = ClientConnection(
            host: host, port: port, configuration: configuration, eventLoop: eventLoop, unixSeconds: now,
            onEvent: { event in
                let complete = report.withLockedValue { report in
                    report.record(event)
                    return report.acknowledged && report.response != nil
                }
                if complete { box.withLockedValue { $0 }?.endOfInput() }
            },
            onConnectionProblem: { reason in problem.withLockedValue { $0 = $0 ?? reason } },
            onBroken: { reason in report.withLockedValue { $0.broken = $0.broken ?? reason } },
            onFirstBytes: { bytes in report.withLockedValue { $0.firstBytes = bytes } },
            onUnfinishedFrame: { frame in report.withLockedValue { $0.unfinished = frame } }
        )
        box.withLockedValue { $0 = connection }
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            report.withLockedValue { $0.timedOut = true }
            connection.giveUp(reason: "no answer within \(timeout)")
        }
        connection.start()
        _ = try await withTaskCancellationHandler {
            try await connection.finished.get()
        } onCancel: {
            connection.giveUp(reason: "interrupted")
        }
        timer.cancel()
        if let reason = problem.withLockedValue({ $0 }), report.withLockedValue({ $0.response == nil && !$0.acknowledged }) {
            throw HandshakeClientError.cannotConnect(reason)
        }
        return report.withLockedValue { $0 }
    }
}

/// Why a handshake could not even be tried.
public enum HandshakeClientError: Error, CustomStringConvertible {
    /// No connection could be made, in the user's words.
    case cannotConnect(String)

    /// Why, and what to try.
    public var description: String {
        switch self {
        case let .cannotConnect(reason) where reason.contains("reset the connection"):
            "\(reason). Is a Decaf server listening there, or a proxy that cannot reach one?"
        case let .cannotConnect(reason): "\(reason); is the server running and listening there?"
        }
    }
}

extension HandshakeReport {
    /// What the client session said, as far as a handshake is concerned.
    mutating func record(_ event: ClientEvent) {
        switch event {
        case .requestAcknowledged: acknowledged = true
        case let .handshake(agreed, roundTrip):
            response = agreed
            self.roundTrip = roundTrip
        case let .incompatible(answer): response = answer
        case let .serverError(error): self.error = error
        case let .protocolError(error): protocolError = error
        case .disconnected: closedByServer = closedByServer || response == nil || !acknowledged
        default: break
        }
    }
}
