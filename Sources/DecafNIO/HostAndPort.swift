/// A host and port as people write them: `127.0.0.1:7447`, or `[::1]:7447` for an IPv6 address.
public struct HostAndPort: Hashable, Sendable, CustomStringConvertible {
    /// The host: a name, an IPv4 address, or an IPv6 address without brackets.
    public var host: String
    /// The TCP port.
    public var port: Int

    /// `host` at `port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Why written text is not a host and port, in the user's words.
    public struct Problem: Error, CustomStringConvertible {
        /// What is wrong, and what to write instead.
        public let description: String
    }

    /// Reads `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` for 127.0.0.1, with a decimal port in `ports`.
    public init(parsing text: String, ports: ClosedRange<Int>) throws(Problem) {
        let usage = "give HOST:PORT, such as 127.0.0.1:7447, [::1]:7447 or :7447"
        guard let colon = text.lastIndex(of: ":") else { throw Problem(description: "no port; \(usage)") }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw Problem(description: "an IPv6 address needs brackets; \(usage)")
        }
        guard host.utf8.count <= 253, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "[" || $0 == "]" }) else {
            throw Problem(description: "not a host name or address; \(usage)")
        }
        let digits = text[text.index(after: colon)...]
        let expected = "a whole number from \(ports.lowerBound) to \(ports.upperBound)"
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { throw Problem(description: "the port is not \(expected)") }
        guard let port = Int(digits), ports.contains(port) else { throw Problem(description: "the port is out of range; give \(expected)") }
        self.init(host: host.isEmpty ? "127.0.0.1" : host, port: port)
    }

    /// `127.0.0.1:7447`, or `[::1]:7447` for an IPv6 address.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
