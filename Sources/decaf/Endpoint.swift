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
        do {
            let parsed = try HostAndPort(parsing: text, ports: ports)
            return Endpoint(host: parsed.host, port: parsed.port)
        } catch {
            throw ArgumentProblem(error.description)
        }
    }

    /// `host:port`, with an IPv6 address in brackets.
    var description: String { HostAndPort(host: host, port: port).description }
}
