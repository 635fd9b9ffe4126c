import DecafSession
import DecafWire

/// What `decaf send` does: how many messages, on how many connections, how fast, until when; how
/// each connection behaves is `client`'s.
public struct SendConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 0
    public var connections = 1
    /// DATA frames per connection.
    public var count = 1
    /// The body of every DATA frame.
    public var fields: [TLVField] = [TLVField(tag: .text, text: "hello")]
    /// Messages per second per connection; nil: as fast as the window allows.
    public var rate: Int?
    /// The client gives up on anything not acknowledged by then.
    public var deadline: Duration = .seconds(120)
    /// A connection that has not completed a handshake by then gives up: what a person at a
    /// terminal waits for before wanting to hear that the server is not there.
    public var connectDeadline: Duration = .seconds(10)
    /// How every connection behaves; each gets its own session id.
    public var client = ClientConfiguration()
    /// Hears every message as it is settled, on its connection's event loop.
    public var onMessage: (@Sendable (SentMessage) -> Void)?
    /// Hears each handshake completed: the session and when (UNIX seconds).
    public var onConnected: (@Sendable (SessionID, Double) -> Void)?

    public init() {}
}
