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
        var text: [UInt8] = []
        write(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the endpoint as `description` writes it.
    public func write(to text: inout [UInt8]) {
        if address.isIPv6 { text.append(UInt8(ascii: "[")) }
        address.write(to: &text)
        if address.isIPv6 { text.append(UInt8(ascii: "]")) }
        text.append(UInt8(ascii: ":"))
        text += String(port).utf8
    }

    public static func < (lhs: TCPEndpoint, rhs: TCPEndpoint) -> Bool {
        (lhs.address, lhs.port) < (rhs.address, rhs.port)
    }
}
