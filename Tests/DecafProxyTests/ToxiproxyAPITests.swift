@testable import DecafProxy
import DecafSession
import Foundation
import NIOCore
import Testing

/// toxiproxy's own API tests (api_test.go), ported: the same requests, as toxiproxy's Go client
/// sends them (`"name": ""`, `"stream": ""`, `"attributes": null`), and the same expectations.
/// Where Decaf differs on purpose, Specs/toxiproxy-compat.md says so and the test checks Decaf's
/// answer instead; the Go test's name is in each test's.
@Suite("toxiproxy's API tests", .timeLimit(.minutes(2)))
struct ToxiproxyAPITests {
    /// A control API with no proxies, as toxiproxy's test server starts, and an echo server the
    /// proxies it creates forward to.
    struct Server {
        let control = ProxyControl(proxies: [:], seed: 1)
        let echo: Channel
        var upstream: String { "127.0.0.1:\(echo.localAddress!.port!)" }

        static func start() async throws -> Server { Server(echo: try await ProxyLoopbackTests.echoServer()) }

        func call(_ method: String, _ path: String, _ body: String = "") async -> (status: Int, json: Any?) {
            let response = await control.respond(to: .init(method: method, path: path, body: Array(body.utf8)))
            return (response.status, response.body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: Data(response.body)))
        }

        /// `client.CreateProxy(name, listen, upstream)`.
        func createProxy(_ name: String, listen: String = "127.0.0.1:0", enabled: Bool = true) async -> (status: Int, proxy: [String: Any]) {
            let (status, json) = await call("POST", "/proxies", #"{"name":"\#(name)","listen":"\#(listen)","upstream":"\#(upstream)","enabled":\#(enabled)}"#)
            return (status, json as? [String: Any] ?? [:])
        }

        /// `proxy.AddToxic(name, type, stream, toxicity, attributes)`, as the Go client writes it.
        func addToxic(_ proxy: String, name: String, type: String, stream: String, toxicity: Double = 1, attributes: String = "null") async -> (status: Int, toxic: [String: Any]) {
            let body = #"{"name":"\#(name)","type":"\#(type)","stream":"\#(stream)","toxicity":\#(toxicity),"attributes":\#(attributes)}"#
            let (status, json) = await call("POST", "/proxies/\(proxy)/toxics", body)
            return (status, json as? [String: Any] ?? [:])
        }

        func toxics(_ proxy: String) async -> [[String: Any]] {
            await call("GET", "/proxies/\(proxy)/toxics").json as? [[String: Any]] ?? []
        }

        func proxies() async -> [String: [String: Any]] {
            await call("GET", "/proxies").json as? [String: [String: Any]] ?? [:]
        }

        func stop() async throws {
            for proxy in await control.all.values { try await proxy.shutdown() }
            try await echo.close()
        }
    }

    /// AssertToxicExists: the toxic named `name` with `type` and `stream`, or nil.
    static func toxic(_ toxics: [[String: Any]], _ name: String) -> [String: Any]? {
        toxics.first { $0["name"] as? String == name }
    }

    static func attributes(_ toxic: [String: Any]?) -> [String: Double] {
        toxic?["attributes"] as? [String: Double] ?? [:]
    }

    @Test("TestIndexWithNoProxies, TestCreateProxyBlankName, TestCreateProxyBlankUpstream")
    func blankFields() async throws {
        let server = try await Server.start()
        #expect(await server.proxies().isEmpty)
        let blankName = await server.call("POST", "/proxies", #"{"name":"","upstream":"localhost:3306"}"#)
        #expect(blankName.status == 400 && (blankName.json as? [String: Any])?["error"] as? String == "missing required field: name")
        let blankUpstream = await server.call("POST", "/proxies", #"{"name":"test","upstream":""}"#)
        #expect(blankUpstream.status == 400 && (blankUpstream.json as? [String: Any])?["error"] as? String == "missing required field: upstream")
        try await server.stop()
    }

    @Test("TestPopulateProxy, TestPopulateDefaultEnabled, TestPopulateDisabledProxy")
    func populate() async throws {
        let server = try await Server.start()
        let populated = await server.call("POST", "/populate",
                                          #"[{"name":"one","listen":"127.0.0.1:0","upstream":"\#(server.upstream)","enabled":true},{"name":"two","listen":"127.0.0.1:0","upstream":"\#(server.upstream)"},{"name":"three","listen":"127.0.0.1:0","upstream":"\#(server.upstream)","enabled":false}]"#)
        #expect(populated.status == 201)
        let proxies = try #require((populated.json as? [String: Any])?["proxies"] as? [[String: Any]])
        #expect(proxies.map { $0["name"] as? String } == ["one", "two", "three"])
        #expect(proxies.map { $0["enabled"] as? Bool } == [true, true, false], "enabled when absent")
        try await server.stop()
    }

    @Test("TestPopulateExistingProxy: localhost:P is where it listens, so the proxy and its toxic are kept; another listen replaces it")
    func populateExisting() async throws {
        let server = try await Server.start()
        let one = await server.createProxy("one")
        let port = try #require((one.proxy["listen"] as? String)?.split(separator: ":").last)
        #expect(await server.createProxy("two").status == 201)
        #expect(await server.addToxic("one", name: "", type: "latency", stream: "downstream").status == 200)
        let populated = await server.call("POST", "/populate",
                                          #"[{"name":"one","listen":"localhost:\#(port)","upstream":"\#(server.upstream)","enabled":true},{"name":"two","listen":"127.0.0.1:0","upstream":"127.0.0.1:7676","enabled":true}]"#)
        #expect(populated.status == 201)
        let proxies = try #require((populated.json as? [String: Any])?["proxies"] as? [[String: Any]])
        #expect(proxies.map { $0["name"] as? String } == ["one", "two"])
        #expect(proxies[0]["listen"] as? String == "127.0.0.1:\(port)")
        #expect(await server.toxics("one").map { $0["type"] as? String } == ["latency"], "populate kept the existing proxy")
        #expect(await server.call("POST", "/populate", #"[{"name":"one","listen":"localhost:\#(port)","upstream":"\#(server.upstream)"}]"#).status == 201)
        #expect(await server.toxics("one").count == 1, "populating again is harmless")
        try await server.stop()
    }

    @Test("TestPopulateWithBadName: the whole list is checked first, the entry named, nothing created")
    func populateBadName() async throws {
        let server = try await Server.start()
        let answer = await server.call("POST", "/populate", #"[{"name":"one","listen":"127.0.0.1:0","upstream":"\#(server.upstream)","enabled":true},{"name":"","listen":"","enabled":true}]"#)
        #expect(answer.status == 400)
        #expect((answer.json as? [String: Any])?["error"] as? String == "missing required field: name at proxy 2")
        #expect(await server.proxies().isEmpty)
        try await server.stop()
    }

    @Test("TestPopulateProxyWithBadDataShouldReturnError: a bad listen address fails there; the proxies before it stay")
    func populateBadData() async throws {
        let server = try await Server.start()
        let answer = await server.call("POST", "/populate",
                                       #"[{"name":"one","listen":"127.0.0.1:0","upstream":"\#(server.upstream)"},{"name":"two","listen":"local373","upstream":"localhost:7474"},{"name":"three","listen":"127.0.0.1:0","upstream":"localhost:7676"}]"#)
        #expect(answer.status == 400)
        #expect(Set(await server.proxies().keys) == ["one"])
        try await server.stop()
    }

    @Test("TestPopulateAddToxic, TestListingProxies, TestCreateAndGetProxy")
    func createAndGet() async throws {
        let server = try await Server.start()
        #expect(await server.call("POST", "/populate", #"[{"name":"one","listen":"127.0.0.1:0","upstream":"\#(server.upstream)"}]"#).status == 201)
        #expect(await server.addToxic("one", name: "", type: "latency", stream: "downstream").status == 200)
        let created = await server.createProxy("mysql_master")
        #expect(created.status == 201)
        let listed = await server.proxies()
        #expect(Set(listed.keys) == ["one", "mysql_master"])
        let master = try #require(listed["mysql_master"])
        #expect(master["upstream"] as? String == server.upstream && master["enabled"] as? Bool == true && (master["toxics"] as? [Any])?.isEmpty == true)
        let got = await server.call("GET", "/proxies/mysql_master")
        #expect((got.json as? [String: Any])?["listen"] as? String == created.proxy["listen"] as? String)
        try await server.stop()
    }

    @Test("TestCreateDisabledProxy, TestCreateDisabledProxyAndEnable, TestDeleteProxy")
    func disableEnableDelete() async throws {
        let server = try await Server.start()
        let created = await server.createProxy("mysql_master", enabled: false)
        #expect(created.status == 201 && created.proxy["enabled"] as? Bool == false)
        let enabled = await server.call("POST", "/proxies/mysql_master", #"{"enabled":true}"#)
        #expect((enabled.json as? [String: Any])?["enabled"] as? Bool == true)
        #expect(await server.call("DELETE", "/proxies/mysql_master").status == 204)
        #expect(await server.proxies().isEmpty)
        let again = await server.call("DELETE", "/proxies/mysql_master")
        #expect(again.status == 404 && (again.json as? [String: Any])?["error"] as? String == "proxy not found")
        try await server.stop()
    }

    @Test("TestCreateProxyPortConflict (500, the address in use), TestCreateProxyNameConflict (409)")
    func conflicts() async throws {
        let server = try await Server.start()
        let first = await server.createProxy("mysql_master")
        let listen = try #require(first.proxy["listen"] as? String)
        let port = await server.createProxy("test", listen: listen)
        #expect(port.status == 500, "\(port.proxy)")
        let name = await server.createProxy("mysql_master")
        #expect(name.status == 409 && name.proxy["error"] as? String == "proxy already exists")
        #expect(await server.call("DELETE", "/proxies/mysql_master").status == 204)
        #expect(await server.createProxy("test", listen: listen).status == 201, "the port is free once its proxy is deleted")
        try await server.stop()
    }

    @Test("TestResetState: toxics gone, proxies enabled and listening")
    func resetState() async throws {
        let server = try await Server.start()
        _ = await server.createProxy("mysql_master")
        let latency = await server.addToxic("mysql_master", name: "", type: "latency", stream: "downstream", attributes: #"{"latency":100,"jitter":10}"#)
        #expect(Self.attributes(latency.toxic) == ["latency": 100, "jitter": 10])
        _ = await server.call("POST", "/proxies/mysql_master", #"{"enabled":false}"#)
        #expect(await server.call("POST", "/reset").status == 204)
        let proxy = try #require(await server.proxies()["mysql_master"])
        #expect(proxy["enabled"] as? Bool == true && (proxy["toxics"] as? [Any])?.isEmpty == true)
        #expect(await server.toxics("mysql_master").isEmpty)
        try await server.stop()
    }

    @Test("TestListingToxics, TestAddToxic, TestAddMultipleToxics")
    func addToxics() async throws {
        let server = try await Server.start()
        _ = await server.createProxy("mysql_master")
        #expect(await server.toxics("mysql_master").isEmpty)
        let foobar = await server.addToxic("mysql_master", name: "foobar", type: "latency", stream: "downstream", attributes: #"{"latency":100,"jitter":10}"#)
        #expect(Self.attributes(foobar.toxic) == ["latency": 100, "jitter": 10])
        _ = await server.addToxic("mysql_master", name: "latency1", type: "latency", stream: "downstream")
        _ = await server.addToxic("mysql_master", name: "latency2", type: "latency", stream: "downstream")
        let toxics = await server.toxics("mysql_master")
        let stored = try #require(Self.toxic(toxics, "foobar"))
        #expect(stored["type"] as? String == "latency" && stored["stream"] as? String == "downstream" && stored["toxicity"] as? Double == 1)
        #expect(Self.attributes(Self.toxic(toxics, "latency2")) == ["latency": 0, "jitter": 0], "attributes null: zeros")
        #expect(Self.toxic(toxics, "latency1")?["stream"] as? String == "downstream")
        try await server.stop()
    }

    @Test("TestAddConflictingToxic, TestAddConflictingToxicsMultistream: 409, the first kept")
    func conflictingToxics() async throws {
        let server = try await Server.start()
        _ = await server.createProxy("mysql_master")
        #expect(await server.addToxic("mysql_master", name: "foobar", type: "latency", stream: "downstream").status == 200)
        let sameStream = await server.addToxic("mysql_master", name: "foobar", type: "slow_close", stream: "downstream")
        #expect(sameStream.status == 409 && sameStream.toxic["error"] as? String == "toxic already exists")
        let otherStream = await server.addToxic("mysql_master", name: "foobar", type: "latency", stream: "upstream")
        #expect(otherStream.status == 409)
        let toxics = await server.toxics("mysql_master")
        #expect(toxics.count == 1 && Self.toxic(toxics, "foobar")?["type"] as? String == "latency" && Self.toxic(toxics, "foobar")?["stream"] as? String == "downstream")
        try await server.stop()
    }

    @Test("TestAddConflictingToxicsMultistreamDefaults: an empty name is TYPE_STREAM; the same unnamed toxic again is 409")
    func defaultNames() async throws {
        let server = try await Server.start()
        _ = await server.createProxy("mysql_master")
        #expect(await server.addToxic("mysql_master", name: "", type: "latency", stream: "upstream").status == 200)
        #expect(await server.addToxic("mysql_master", name: "", type: "latency", stream: "downstream").status == 200)
        let names = Set(await server.toxics("mysql_master").compactMap { $0["name"] as? String })
        #expect(names == ["latency_upstream", "latency_downstream"])
        #expect(await server.addToxic("mysql_master", name: "", type: "latency", stream: "downstream").status == 409)
        #expect(await server.call("DELETE", "/proxies/mysql_master/toxics/latency_downstream").status == 204, "a default name can be deleted")
        try await server.stop()
    }

    @Test("TestAddToxicWithToxicity, TestAddNoop, TestInvalidStream")
    func toxicityNoopStream() async throws {
        let server = try await Server.start()
        _ = await server.createProxy("mysql_master")
        let latency = await server.addToxic("mysql_master", name: "", type: "latency", stream: "downstream", toxicity: 0.2, attributes: #"{"latency":100,"jitter":10}"#)
        #expect(latency.toxic["toxicity"] as? Double == 0.2)
        let noop = await server.addToxic("mysql_master", name: "foobar", type: "noop", stream: "")
        #expect(noop.status == 200 && noop.toxic["type"] as? String == "noop" && noop.toxic["stream"] as? String == "downstream" && noop.toxic["toxicity"] as? Double == 1)
        #expect(await server.addToxic("mysql_master", name: "", type: "latency", stream: "walrustream").status == 400)
        try await server.stop()
    }

    @Test("TestUpdateToxics: an update without toxicity keeps it, attributes not named keep theirs")
    func updateToxics() async throws {
        let server = try await Server.start()
        _ = await server.createProxy("mysql_master")
        _ = await server.addToxic("mysql_master", name: "", type: "latency", stream: "downstream", attributes: #"{"latency":100,"jitter":10}"#)
        let first = await server.call("PATCH", "/proxies/mysql_master/toxics/latency_downstream", #"{"attributes":{"latency":1000},"toxicity":0.5}"#)
        #expect((first.json as? [String: Any])?["toxicity"] as? Double == 0.5 && Self.attributes(first.json as? [String: Any]) == ["latency": 1000, "jitter": 10])
        let second = await server.call("PATCH", "/proxies/mysql_master/toxics/latency_downstream", #"{"attributes":{"latency":500}}"#)
        #expect((second.json as? [String: Any])?["toxicity"] as? Double == 0.5 && Self.attributes(second.json as? [String: Any]) == ["latency": 500, "jitter": 10])
        try await server.stop()
    }

    @Test("TestRemoveToxic, TestVersionEndpointReturnsVersion; unknown attributes are ignored, as toxiproxy's JSON decoding does")
    func removeAndVersion() async throws {
        let server = try await Server.start()
        _ = await server.createProxy("mysql_master")
        #expect(await server.addToxic("mysql_master", name: "", type: "latency", stream: "downstream", attributes: #"{"latency":5,"walrus":1}"#).status == 200)
        #expect(await server.call("DELETE", "/proxies/mysql_master/toxics/latency_downstream").status == 204)
        #expect(await server.toxics("mysql_master").isEmpty)
        #expect((await server.call("GET", "/version").json as? [String: String])?["version"] == ProxyControl.version)
        try await server.stop()
    }
}
