import DecafNIO

/// A host and port on the command line: `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` for 127.0.0.1.
struct Endpoint: CustomStringConvertible, Sendable {
    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// A server to connect to: a port from 1 to 65535.
    @Sendable static func server(_ text: String) throws(ArgumentProblem) -> Endpoint {
        try parse(text, ports: 1...65_535)
    }

    /// An address to listen on: port 0 picks a free port.
    @Sendable static func listening(_ text: String) throws(ArgumentProblem) -> Endpoint {
        try parse(text, ports: 0...65_535)
    }

    private static func parse(_ text: String, ports: ClosedRange<Int>) throws(ArgumentProblem) -> Endpoint {
        let usage = "give HOST:PORT, such as 127.0.0.1:7447, [::1]:7447 or :7447"
        guard let colon = text.lastIndex(of: ":") else { throw ArgumentProblem("no port; \(usage)") }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw ArgumentProblem("an IPv6 address needs brackets; \(usage)")
        }
        guard host.utf8.count <= 253, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "[" || $0 == "]" }) else {
            throw ArgumentProblem("not a host name or address; \(usage)")
        }
        let port = try IntegerArgument.parse(String(text[text.index(after: colon)...]), in: ports, hex: false)
        return Endpoint(host: host.isEmpty ? "127.0.0.1" : host, port: port)
    }

    /// `host:port`, with an IPv6 address in brackets.
    var description: String { HostAndPort(host: host, port: port).description }
}
