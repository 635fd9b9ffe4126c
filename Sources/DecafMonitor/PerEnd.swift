/// A value for each end of a connection, the client's and the server's: what the rules keep per
/// end, read and changed in place without a dictionary's hashing.
struct PerEnd<Value> {
    var client: Value
    var server: Value

    init(client: Value, server: Value) {
        self.client = client
        self.server = server
    }

    /// The same starting value for both ends.
    init(both value: Value) {
        client = value
        server = value
    }

    /// The value of `end`, read and changed in place (no copy of what it holds).
    subscript(end: MonitorEnd) -> Value {
        _read {
            switch end {
            case .client: yield client
            case .server: yield server
            }
        }
        _modify {
            switch end {
            case .client: yield &client
            case .server: yield &server
            }
        }
    }
}

extension PerEnd: Sendable where Value: Sendable {}
