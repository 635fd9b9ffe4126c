/// One value for each direction of a connection: two fields, so neither can be missing.
public struct PerDirection<Value> {
    public var clientToServer: Value
    public var serverToClient: Value

    public init(clientToServer: Value, serverToClient: Value) {
        self.clientToServer = clientToServer
        self.serverToClient = serverToClient
    }

    /// The same starting value for both directions.
    public init(both value: Value) {
        self.init(clientToServer: value, serverToClient: value)
    }

    /// The value of `direction`, read and changed in place (no copy of what it holds).
    public subscript(direction: TCPDirection) -> Value {
        _read {
            switch direction {
            case .clientToServer: yield clientToServer
            case .serverToClient: yield serverToClient
            }
        }
        _modify {
            switch direction {
            case .clientToServer: yield &clientToServer
            case .serverToClient: yield &serverToClient
            }
        }
    }
}

extension PerDirection: Sendable where Value: Sendable {}
extension PerDirection: Equatable where Value: Equatable {}
extension PerDirection: Hashable where Value: Hashable {}
