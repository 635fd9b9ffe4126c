import DecafNIO
import DecafProxy
import Foundation
import Testing

/// The control API over HTTP, as curl or a toxiproxy client library meets it.
@Suite("proxy control over HTTP", .timeLimit(.minutes(2)))
struct ControlServerTests {
    /// Sends `requests` (raw HTTP/1.1, the last closing the connection) and returns what came back.
    static func exchange(_ requests: String) async throws -> String {
        let server = try await ProxyLoopbackTests.echoServer()
        let proxy = try await ProxyLoopbackTests.proxy(to: server)
        let control = try await ControlServer.start(host: "127.0.0.1", port: 0, control: ProxyControl(proxies: ["decaf": proxy], seed: 1))
        let client = try await RawClient.connect(port: control.localAddress.port!)
        client.send(requests)
        let answer = String(decoding: try await client.untilClosed(), as: UTF8.self)
        try await control.shutdown()
        try await proxy.shutdown()
        try await server.close()
        return answer
    }

    static func post(_ path: String, _ body: String, headers: String = "", closing: Bool = false) -> String {
        "POST \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\(headers)"
            + (closing ? "Connection: close\r\n" : "") + "\r\n\(body)"
    }

    @Test("pipelined requests on one connection are answered in order, with toxiproxy's statuses and JSON")
    func pipelined() async throws {
        let answer = try await Self.exchange(
            Self.post("/proxies/decaf/toxics", #"{"type":"latency","attributes":{"latency":300}}"#)
                + "GET /proxies/decaf/toxics/latency_downstream HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "DELETE /proxies/decaf/toxics/latency_downstream HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let statuses = answer.components(separatedBy: "HTTP/1.1 ").dropFirst().map { "HTTP/1.1 " + ($0.components(separatedBy: "\r\n").first ?? "") }
        #expect(statuses == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 204 No Content"])
        #expect(answer.contains(#""attributes":{"jitter":0,"latency":300},"name":"latency_downstream""#))
        #expect(answer.contains("Content-Type: application/json"))
        // TestRequestId: every answer carries its own X-Toxiproxy-Request-Id.
        let ids = answer.components(separatedBy: "\r\n").filter { $0.hasPrefix("X-Toxiproxy-Request-Id: ") }
        #expect(ids.count == 3 && Set(ids).count == 3, "\(ids)")
    }

    @Test("a browser is refused, so no web page can drive the proxy; a body over 1 MiB is refused")
    func refusals() async throws {
        let browser = try await Self.exchange(Self.post("/reset", "", headers: "User-Agent: Mozilla/5.0\r\n", closing: true))
        #expect(browser.hasPrefix("HTTP/1.1 403 Forbidden"))
        let huge = try await Self.exchange(Self.post("/populate", "[" + String(repeating: " ", count: 1 << 20) + "]", closing: true))
        #expect(huge.hasPrefix("HTTP/1.1 413 Payload Too Large"))
    }
}
