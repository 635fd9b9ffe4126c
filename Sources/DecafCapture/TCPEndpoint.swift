/// One end of a TCP connection: an address and a port.
public struct TCPEndpoint: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var address: IPAddress
    public var port: UInt16

    public init(address: IPAddress, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// `10.0.0.1:9000`, or `[::1]:9000` for IPv6.
    public var description: String {
        address.isIPv6 ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    public static func < (lhs: TCPEndpoint, rhs: TCPEndpoint) -> Bool {
        (lhs.address, lhs.port) < (rhs.address, rhs.port)
    }
}
