/// A message the application asks the client to send: its own id, and the TLV bytes of the body.
public struct ClientMessage: Hashable, Sendable {
    public var id: Int
    public var payload: [UInt8]

    public init(id: Int, payload: [UInt8]) {
        self.id = id
        self.payload = payload
    }
}
