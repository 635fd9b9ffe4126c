import ArgumentParser

/// A `HOST:PORT` argument.
struct Endpoint: ExpressibleByArgument, CustomStringConvertible {
    var host: String
    var port: Int

    init?(argument: String) {
        guard let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]),
              (0...65_535).contains(port)
        else { return nil }
        let host = String(argument[..<colon])
        self.host = host.isEmpty ? "127.0.0.1" : host
        self.port = port
    }

    var description: String { "\(host):\(port)" }
}
