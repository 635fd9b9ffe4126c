/// How hard a client tries to deliver: as the brief says, or until its deadline.
public enum ClientPolicy: String, CaseIterable, Sendable {
    /// The brief's client (EX-7): three resends a second apart, then the message failed.
    case brief
    /// Delivers everything through a weak network before its deadline: it resends until then, on an
    /// ACK timeout that follows the round trip, sends copies under measured loss, gives up a silent
    /// connection within about three seconds, and reconnects within a second.
    case reliable

    /// The client configuration of the policy.
    public var configuration: ClientConfiguration {
        var configuration = ClientConfiguration()
        guard self == .reliable else { return configuration }
        configuration.retries = .max
        configuration.adaptiveAckTimeout = .milliseconds(200)...(.seconds(2))
        configuration.sendsCopiesUnderLoss = true
        configuration.renewsHandshakeRequest = true
        configuration.handshakeSends = 4
        configuration.connectTimeout = .seconds(2)
        configuration.heartbeat = .seconds(1)
        configuration.silentIntervalsBeforeDead = 3
        configuration.reconnectBase = .milliseconds(50)
        configuration.maxDelay = .seconds(1)
        configuration.stableConnection = .seconds(2)
        return configuration
    }
}
