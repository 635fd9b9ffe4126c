/// A message the application asks the client to send: its own id, and the TLV bytes of the body.
public struct ClientMessage: Hashable, Sendable {
    /// The application's own id, which events about the message carry.
    public var id: Int
    /// The body's TLV bytes.
    public var payload: [UInt8]

    /// Message `id` with body `payload`.
    public init(id: Int, payload: [UInt8]) {
        self.id = id
        self.payload = payload
    }
}
