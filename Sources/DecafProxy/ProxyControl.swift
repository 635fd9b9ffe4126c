import DecafJSON
import DecafNIO
import DecafSession
import Foundation
import NIOCore

/// The proxy's control API, toxiproxy's in shape (`/proxies`, `/proxies/{name}/toxics`, `/reset`,
/// `/populate`, `/version`), so toxiproxy's client libraries can drive it, plus what toxiproxy has
/// not: `POST /proxies/{name}/profile` and `/timeline` to switch weak networks, and
/// `GET /proxies/{name}/counts`. It answers requests as values, without sockets; the HTTP shell is
/// `ControlServer`. No request waits for traffic: a change is answered once every open connection
/// has taken it, on its event loop's next turn, so what a script sends after the answer meets the
/// new toxics.
public actor ProxyControl {
    /// A request: its method, its path (with any query), and its body.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var body: [UInt8]

        public init(method: String, path: String, body: [UInt8] = []) {
            self.method = method
            self.path = path
            self.body = body
        }
    }

    /// An answer: an HTTP status and a JSON body (empty for 204).
    public struct Response: Sendable {
        public var status: Int
        public var body: [UInt8]
    }

    /// The version `/version` reports.
    public static let version = "decaf-proxy 1"

    private var proxies: [String: ProxyServer]
    private let seed: UInt64

    /// Controls `proxies` by name; proxies it creates draw their randomness from `seed`.
    public init(proxies: [String: ProxyServer], seed: UInt64) {
        self.proxies = proxies
        self.seed = seed
    }

    /// Every proxy it controls now, by name.
    public var all: [String: ProxyServer] { proxies }

    /// The answer to `request`.
    public func respond(to request: Request) async -> Response {
        do {
            return try await route(request)
        } catch let error as ControlError {
            return Response(status: error.status, body: Self.encode(error))
        } catch {
            return Response(status: 500, body: Self.encode(ControlError("\(error)", status: 500)))
        }
    }

    private func route(_ request: Request) async throws -> Response {
        let path = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let parts = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let method = request.method == "PATCH" ? "POST" : request.method
        let body = request.body
        switch (method, parts.count, parts.first) {
        case ("GET", 1, "version"): return Self.ok(["version": Self.version])
        case ("POST", 1, "reset"):
            for proxy in proxies.values {
                proxy.setEnabled(true)
                try? await proxy.changeToxics { $0 = ProxyToxics() }.get()
            }
            return Response(status: 204, body: [])
        case ("GET", 1, "proxies"): return Self.ok(proxies.map { Self.describe($1, named: $0) }.reduce(into: [:]) { $0[$1.name ?? ""] = $1 })
        case ("POST", 1, "proxies"):
            let (name, proxy) = try await create(try Self.decode(ProxyJSON.self, body), replacing: false)
            return Response(status: 201, body: Self.encode(Self.describe(proxy, named: name)))
        case ("POST", 1, "populate"):
            // As toxiproxy: every entry is checked for its name and upstream before any proxy is
            // made, and the entry at fault is named; then they are made in order.
            let entries = try Self.decode([ProxyJSON].self, body)
            for (index, entry) in entries.enumerated() {
                for (field, value) in [("name", entry.name), ("upstream", entry.upstream)] where value?.isEmpty ?? true {
                    throw ControlError("missing required field: \(field) at proxy \(index + 1)", status: 400)
                }
            }
            var described: [ProxyJSON] = []
            for entry in entries {
                let (name, proxy) = try await create(entry, replacing: true)
                described.append(Self.describe(proxy, named: name))
            }
            return Response(status: 201, body: Self.encode(["proxies": described]))
        case (_, 2..., "proxies"):
            guard let proxy = proxies[parts[1]] else { throw ControlError.proxyNotFound }
            return try await proxyRoute(method: method, proxy: proxy, name: parts[1], rest: Array(parts.dropFirst(2)), body: body)
        case (_, 1, "version"), (_, 1, "reset"), (_, 1, "proxies"), (_, 1, "populate"):
            throw ControlError("method \(request.method) is not allowed on \(path)", status: 405)
        default: throw ControlError("no such endpoint: \(path)", status: 404)
        }
    }

    private func proxyRoute(method: String, proxy: ProxyServer, name: String, rest: [String], body: [UInt8]) async throws -> Response {
        switch (method, rest.first, rest.count) {
        case ("GET", nil, _): return Self.ok(Self.describe(proxy, named: name))
        case ("POST", nil, _):
            let update = try Self.decode(ProxyJSON.self, body)
            if let listen = update.listen, listen != Self.listen(of: proxy) || update.upstream.map({ $0 != proxy.upstream.description }) ?? false {
                throw ControlError("changing listen (\(listen)) or upstream is not supported: delete the proxy and create it again", status: 400)
            }
            if let enabled = update.enabled { try? await proxy.setEnabled(enabled).get() }
            return Self.ok(Self.describe(proxy, named: name))
        case ("DELETE", nil, _):
            proxies[name] = nil
            try? await proxy.shutdown()
            return Response(status: 204, body: [])
        case ("GET", "counts", 1): return Self.ok(proxy.counts)
        case ("POST", "profile", 1):
            let choice = try Self.decode([String: String].self, body)
            guard let named = choice["profile"], let profile = ProxyProfile(rawValue: named) else {
                throw ControlError.badRequest("give {\"profile\": NAME}, one of \(ProxyProfile.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            proxy.play(profile.timeline)
            return Self.ok(Self.describe(proxy, named: name))
        case ("POST", "timeline", 1):
            do { proxy.play(try ProxyTimeline(json: Data(body))) } catch { throw ControlError.badRequest(error.description) }
            return Self.ok(Self.describe(proxy, named: name))
        case ("GET", "toxics", 1): return Self.ok(proxy.toxics.toxics.map(ProxyToxicJSON.init))
        case ("POST", "toxics", 1): return Self.ok(ProxyToxicJSON(try await add(try Self.decode(ProxyToxicJSON.self, body), to: proxy)))
        case (_, "toxics", 2): return try await toxicRoute(method: method, proxy: proxy, toxic: rest[1], body: body)
        case (_, nil, _), (_, "counts", 1), (_, "profile", 1), (_, "timeline", 1), (_, "toxics", 1):
            throw ControlError("method \(method) is not allowed here", status: 405)
        default: throw ControlError("no such endpoint", status: 404)
        }
    }

    private func toxicRoute(method: String, proxy: ProxyServer, toxic name: String, body: [UInt8]) async throws -> Response {
        guard let existing = proxy.toxics[name] else { throw ControlError.toxicNotFound }
        switch method {
        case "GET": return Self.ok(ProxyToxicJSON(existing))
        case "POST":
            let update = try Self.decode(ProxyToxicJSON.Update.self, body)
            var changed = ProxyToxicJSON(existing)
            changed.attributes?.merge(update.attributes ?? [:]) { $1 }
            changed.toxicity = update.toxicity ?? existing.toxicity
            var replacement = existing
            do throws(ToxicCatalog.Problem) {
                replacement.toxic = try changed.toxic(lenient: true)
                replacement.toxicity = try changed.checkedToxicity()
            } catch { throw ControlError.badRequest(error.description) }
            try? await proxy.changeToxics { $0[name] = replacement }.get()
            return Self.ok(ProxyToxicJSON(replacement))
        case "DELETE":
            try? await proxy.changeToxics { $0[name] = nil }.get()
            return Response(status: 204, body: [])
        default: throw ControlError("method \(method) is not allowed here", status: 405)
        }
    }

    /// Adds the toxic `json` describes to `proxy`, as toxiproxy does: on `downstream` when it names
    /// no stream, named `TYPE_STREAM` when it has no name (or an empty one), and refused with 409
    /// when a toxic of that name exists.
    private func add(_ json: ProxyToxicJSON, to proxy: ProxyServer) async throws -> ProxyToxic {
        let toxic: Toxic
        let toxicity: Double
        let stream: ProxyStream
        do throws(ToxicCatalog.Problem) {
            toxic = try json.toxic(lenient: true)
            toxicity = try json.checkedToxicity()
            stream = try json.streams(default: [.downstream])[0]
        } catch { throw ControlError.badRequest(error.description) }
        let name = json.name.flatMap { $0.isEmpty ? nil : $0 } ?? "\(json.type)_\(stream.rawValue)"
        if proxy.toxics[name] != nil { throw ControlError("toxic already exists", status: 409) }
        var added: ProxyToxic?
        try? await proxy.changeToxics { added = $0.add(toxic, stream: stream, toxicity: toxicity, name: name) }.get()
        guard let added else { throw ControlError("toxic already exists", status: 409) }
        return added
    }

    /// Starts the proxy `json` describes; with `replacing`, one of the same name is kept when it
    /// listens and forwards alike and replaced otherwise, as toxiproxy's `/populate` does.
    private func create(_ json: ProxyJSON, replacing: Bool) async throws -> (String, ProxyServer) {
        guard let name = json.name, !name.isEmpty else { throw ControlError("missing required field: name", status: 400) }
        guard let upstreamText = json.upstream, !upstreamText.isEmpty else { throw ControlError("missing required field: upstream", status: 400) }
        let upstream: HostAndPort
        let listen: HostAndPort
        do {
            upstream = try HostAndPort(parsing: upstreamText, ports: 1...65_535)
            listen = try HostAndPort(parsing: json.listen ?? "127.0.0.1:0", ports: 0...65_535)
        } catch { throw ControlError.badRequest(error.description) }
        if let existing = proxies[name] {
            guard replacing else { throw ControlError("proxy already exists", status: 409) }
            // As toxiproxy: the same upstream, and a listen address that resolves to where it
            // listens (localhost:P is 127.0.0.1:P), keep the proxy and its toxics.
            if existing.upstream == upstream && (listen.port == 0 || Self.listen(of: existing) == Self.resolved(listen).description) {
                existing.setEnabled(json.enabled ?? true)
                return (name, existing)
            }
            proxies[name] = nil
            try? await existing.shutdown()
        }
        let proxy: ProxyServer
        do {
            proxy = try await ProxyServer.start(host: listen.host, port: listen.port, upstream: upstream, toxics: ProxyToxics(), seed: seed &+ UInt64(proxies.count))
        } catch { throw ControlError("\(error)", status: 500) }
        guard proxies[name] == nil else {
            try? await proxy.shutdown()
            throw ControlError("proxy already exists", status: 409)
        }
        if json.enabled == false { proxy.setEnabled(false) }
        proxies[name] = proxy
        return (name, proxy)
    }

    private static func describe(_ proxy: ProxyServer, named name: String) -> ProxyJSON {
        ProxyJSON(name: name, listen: listen(of: proxy), upstream: proxy.upstream.description, enabled: proxy.isEnabled,
                  toxics: proxy.toxics.toxics.map(ProxyToxicJSON.init))
    }

    /// `address` with its host name resolved to the IPv4 address a listener binds for it.
    static func resolved(_ address: HostAndPort) -> HostAndPort {
        guard let resolved = try? SocketAddress.makeAddressResolvingHost(address.host, port: address.port), let ip = resolved.ipAddress else { return address }
        return HostAndPort(host: ip, port: address.port)
    }

    /// Where `proxy` listens, `HOST:PORT` with the port it got.
    static func listen(of proxy: ProxyServer) -> String {
        HostAndPort(host: proxy.localAddress.ipAddress ?? "127.0.0.1", port: proxy.localAddress.port ?? 0).description
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, _ body: [UInt8]) throws -> Value {
        do { return try JSONDecoder().decode(type, from: Data(body)) } catch {
            throw ControlError.badRequest(body.isEmpty ? "empty; send JSON" : "not the JSON this endpoint takes (\(error.localizedDescription))")
        }
    }

    private static func ok(_ value: some Encodable) -> Response { Response(status: 200, body: encode(value)) }

    private static func encode(_ value: some Encodable) -> [UInt8] {
        // Only a non-finite number has no JSON form, and no answer holds one.
        (try? SortedJSONEncoder.bytes(value)) ?? Array("{}".utf8)
    }
}
