import DecafWire

/// What `decaf send` does: how many messages, on how many connections, how fast, and how it
/// behaves when things go wrong.
public struct SendConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 0
    public var connections = 1
    /// DATA frames per connection.
    public var count = 1
    /// The body of every DATA frame.
    public var fields: [TLVField] = [TLVField(tag: .text, text: "hello")]
    public var compress = false
    /// Messages sent but not yet acknowledged, at most, per connection.
    public var window = 64
    /// Messages per second per connection; nil: as fast as the window allows.
    public var rate: Int?
    /// A message not acknowledged within this is sent again, same sequence and timestamp (EX-7).
    public var ackTimeout: Duration = .seconds(1)
    /// Times a message is sent again before it is reported lost.
    public var retries = 3
    public var reconnect: ReconnectPolicy = .exponential
    public var reconnectBase: Duration = .milliseconds(100)
    /// The longest wait between reconnect attempts.
    public var maxDelay: Duration = .seconds(30)
    /// Interval between heartbeats; nil: none.
    public var heartbeat: Duration?
    /// The features offered in the handshake.
    public var features: FeatureFlags = .known
    /// The client gives up on anything not acknowledged by then.
    public var deadline: Duration = .seconds(120)

    public init() {}
}
