/// A handshake completed, in `decaf send --messages`: the session and when (UNIX seconds).
struct ConnectionRecordJSON: Encodable {
    var session: UInt16
    var connected: Double
}
