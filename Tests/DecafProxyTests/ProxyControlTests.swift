@testable import DecafProxy
import DecafNIO
import DecafSession
import Foundation
import NIOCore
import Testing

/// The control API as values: toxiproxy's routes and answers, without HTTP.
@Suite("proxy control API", .timeLimit(.minutes(2)))
struct ProxyControlTests {
    /// A control API over one proxy named `decaf`, in front of an echo server.
    struct Fixture {
        let server: Channel
        let proxy: ProxyServer
        let control: ProxyControl

        static func make() async throws -> Fixture {
            let server = try await ProxyLoopbackTests.echoServer()
            let proxy = try await ProxyLoopbackTests.proxy(to: server)
            return Fixture(server: server, proxy: proxy, control: ProxyControl(proxies: ["decaf": proxy], seed: 1))
        }

        func call(_ method: String, _ path: String, _ body: String = "") async -> (status: Int, json: Any?) {
            let response = await control.respond(to: .init(method: method, path: path, body: Array(body.utf8)))
            return (response.status, response.body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: Data(response.body)))
        }

        func close() async throws {
            for proxy in await control.all.values { try await proxy.shutdown() }
            try await proxy.shutdown()
            try await server.close()
        }
    }

    @Test("a toxic added without stream or name acts downstream, named TYPE_STREAM, and reads back in toxiproxy's units")
    func addToxic() async throws {
        let fixture = try await Fixture.make()
        let (status, json) = await fixture.call("POST", "/proxies/decaf/toxics", #"{"type":"latency","attributes":{"latency":250,"jitter":20}}"#)
        #expect(status == 200)
        let toxic = try #require(json as? [String: Any])
        #expect(toxic["name"] as? String == "latency_downstream")
        #expect(toxic["stream"] as? String == "downstream")
        #expect(toxic["toxicity"] as? Double == 1)
        #expect(toxic["attributes"] as? [String: Double] == ["latency": 250, "jitter": 20])
        #expect(fixture.proxy.toxics.on(.downstream).map(\.toxic) == [.latency(.milliseconds(250), jitter: .milliseconds(20))])
        #expect(fixture.proxy.toxics.on(.upstream).isEmpty)
        let listed = await fixture.call("GET", "/proxies/decaf/toxics")
        #expect((listed.json as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["latency_downstream"])
        try await fixture.close()
    }

    @Test("a frame toxic with a name, a stream and a toxicity; a second of the same name is a conflict")
    func namedFrameToxic() async throws {
        let fixture = try await Fixture.make()
        let body = #"{"name":"lose_acks","type":"drop_frames","stream":"upstream","toxicity":0.5,"attributes":{"probability":0.3,"types":"ack"}}"#
        #expect(await fixture.call("POST", "/proxies/decaf/toxics", body).status == 200)
        #expect(fixture.proxy.toxics["lose_acks"] == ProxyToxic(name: "lose_acks", stream: .upstream, toxic: .dropFrames(probability: 0.3, types: [.ack]), toxicity: 0.5))
        let again = await fixture.call("POST", "/proxies/decaf/toxics", body)
        #expect(again.status == 409)
        #expect((again.json as? [String: Any])?["error"] as? String == "toxic already exists")
        try await fixture.close()
    }

    @Test("an update changes only the attributes it names and the toxicity; delete removes; a missing toxic is 404")
    func updateAndDelete() async throws {
        let fixture = try await Fixture.make()
        _ = await fixture.call("POST", "/proxies/decaf/toxics", #"{"type":"latency","stream":"upstream","attributes":{"latency":100,"jitter":10}}"#)
        let updated = await fixture.call("PATCH", "/proxies/decaf/toxics/latency_upstream", #"{"attributes":{"latency":40},"toxicity":0.25}"#)
        #expect(updated.status == 200)
        #expect(fixture.proxy.toxics["latency_upstream"] == ProxyToxic(name: "latency_upstream", stream: .upstream,
                                                                      toxic: .latency(.milliseconds(40), jitter: .milliseconds(10)), toxicity: 0.25))
        #expect(await fixture.call("GET", "/proxies/decaf/toxics/latency_upstream").status == 200)
        #expect(await fixture.call("DELETE", "/proxies/decaf/toxics/latency_upstream").status == 204)
        #expect(fixture.proxy.toxics.toxics.isEmpty)
        #expect(await fixture.call("DELETE", "/proxies/decaf/toxics/latency_upstream").status == 404)
        #expect(await fixture.call("GET", "/proxies/nowhere").status == 404)
        try await fixture.close()
    }

    @Test("bad requests say what is wrong: not JSON, an unknown type, an impossible value, an unknown stream, a wrong method or path")
    func badRequests() async throws {
        let fixture = try await Fixture.make()
        let cases: [(String, String, String, Int, String)] = [
            ("POST", "/proxies/decaf/toxics", "", 400, "empty"),
            ("POST", "/proxies/decaf/toxics", "{nope", 400, "not the JSON"),
            ("POST", "/proxies/decaf/toxics", #"{"type":"teleport"}"#, 400, "'teleport' is not a toxic"),
            ("POST", "/proxies/decaf/toxics", #"{"type":"drop_frames","attributes":{"probability":2}}"#, 400, "not a probability"),
            ("POST", "/proxies/decaf/toxics", #"{"type":"latency","attributes":{"latency":-5}}"#, 400, "not zero or more"),
            ("POST", "/proxies/decaf/toxics", #"{"type":"blackhole","stream":"sideways"}"#, 400, "neither upstream nor downstream"),
            ("POST", "/proxies/decaf/toxics", #"{"type":"blackhole","toxicity":1.5}"#, 400, "toxicity"),
            ("DELETE", "/version", "", 405, "not allowed"),
            ("GET", "/teapot", "", 404, "no such endpoint"),
            ("POST", "/proxies/decaf/profile", #"{"profile":"moon"}"#, 400, "subway"),
        ]
        for (method, path, body, status, says) in cases {
            let answer = await fixture.call(method, path, body)
            #expect(answer.status == status, "\(method) \(path) \(body)")
            let error = (answer.json as? [String: Any])?["error"] as? String ?? ""
            #expect(error.contains(says), "\(method) \(path) \(body): \(error)")
        }
        #expect(fixture.proxy.toxics.toxics.isEmpty)
        try await fixture.close()
    }

    @Test("every toxic type reads back as itself from the attributes the API shows")
    func attributesRoundTrip() throws {
        let toxics: [Toxic] = [
            .latency(.milliseconds(250), jitter: .milliseconds(30)), .bandwidth(bytesPerSecond: 64 * 1024),
            .slicer(averageSize: 100, sizeVariation: 20, delay: .microseconds(500)), .slowClose(.seconds(2)), .timeout(.milliseconds(1500)),
            .resetPeer(.milliseconds(700)), .limitData(4096), .blackhole, .down, .noop,
            .packetLoss(probability: 0.05, retransmissionTimeout: .milliseconds(300)), .dropFrames(probability: 0.3, types: [.ack, .data]),
            .dropFrames(probability: 0.5, types: nil), .duplicateFrames(probability: 0.1), .corruptFrames(probability: 0.2), .cutFrames(probability: 0.01),
        ]
        #expect(Set(toxics.map(ToxicCatalog.type)) == Set(ToxicCatalog.types), "every type is here")
        for toxic in toxics {
            let shown = ProxyToxicJSON(ProxyToxic(name: "t", stream: .upstream, toxic: toxic))
            let encoded = try JSONEncoder().encode(shown)
            #expect(try JSONDecoder().decode(ProxyToxicJSON.self, from: encoded).toxic() == toxic, "\(String(decoding: encoded, as: UTF8.self))")
        }
    }

    @Test("proxies are created, listed, refused twice, populated (kept or replaced), disabled and deleted")
    func proxies() async throws {
        let fixture = try await Fixture.make()
        let upstream = "127.0.0.1:\(fixture.server.localAddress!.port!)"
        let created = await fixture.call("POST", "/proxies", #"{"name":"redis","listen":"127.0.0.1:0","upstream":"\#(upstream)"}"#)
        #expect(created.status == 201)
        let listen = try #require((created.json as? [String: Any])?["listen"] as? String)
        #expect(!listen.hasSuffix(":0"), "the port it got")
        #expect(await fixture.call("POST", "/proxies", #"{"name":"redis","upstream":"\#(upstream)"}"#).status == 409)
        #expect(await fixture.call("POST", "/proxies", #"{"name":"nameless"}"#).status == 400)
        let listed = await fixture.call("GET", "/proxies")
        #expect((listed.json as? [String: Any]).map { Set($0.keys) } == ["decaf", "redis"])
        let populated = await fixture.call("POST", "/populate", #"[{"name":"redis","upstream":"\#(upstream)"},{"name":"db","upstream":"\#(upstream)","enabled":false}]"#)
        #expect(populated.status == 201)
        let proxies = try #require((populated.json as? [String: Any])?["proxies"] as? [[String: Any]])
        #expect(proxies.map { $0["listen"] as? String } == [listen, proxies[1]["listen"] as? String], "redis kept where it listens")
        #expect(proxies.map { $0["enabled"] as? Bool } == [true, false])
        let redis = try #require(await fixture.control.all["redis"])
        #expect(await fixture.call("POST", "/proxies/redis", #"{"enabled":false}"#).status == 200)
        #expect(!redis.isEnabled)
        // The reset may come before the connect completes on a busy machine: then the connect fails.
        if let refused = try? await RawClient.connect(port: redis.localAddress.port!) {
            #expect(try await refused.untilClosed() == [], "a disabled proxy resets connections")
        }
        #expect(redis.counts.refused == 1, "counted before the reset is sent")
        #expect(await fixture.call("DELETE", "/proxies/redis").status == 204)
        #expect(await fixture.control.all["redis"] == nil)
        try await fixture.close()
    }

    @Test("a profile replaces the toxics; reset removes them all and enables every proxy")
    func profileAndReset() async throws {
        let fixture = try await Fixture.make()
        #expect(await fixture.call("POST", "/proxies/decaf/profile", #"{"profile":"subway"}"#).status == 200)
        #expect(fixture.proxy.toxics == ProxyProfile.subway.timeline.phases[0].toxics)
        let timeline = #"{"phases":[{"name":"gone","toxics":[{"type":"blackhole"}]}]}"#
        #expect(await fixture.call("POST", "/proxies/decaf/timeline", timeline).status == 200)
        #expect(fixture.proxy.toxics.on(.upstream).map(\.toxic) == [.blackhole] && fixture.proxy.toxics.on(.downstream).map(\.toxic) == [.blackhole])
        fixture.proxy.setEnabled(false)
        #expect(await fixture.call("POST", "/reset").status == 204)
        #expect(fixture.proxy.toxics.toxics.isEmpty && fixture.proxy.isEnabled)
        let version = await fixture.call("GET", "/version")
        #expect((version.json as? [String: String])?["version"] == ProxyControl.version)
        try await fixture.close()
    }

    @Test("the API answers while a connection lives behind a blackhole, and answers only once the change is in force on it")
    func neverWaitsForTraffic() async throws {
        let fixture = try await Fixture.make()
        let client = try await RawClient.connect(port: fixture.proxy.localAddress.port!)
        #expect(await fixture.call("POST", "/proxies/decaf/toxics", #"{"name":"hole","type":"blackhole","stream":"upstream"}"#).status == 200)
        for round in 0..<50 {
            #expect(await fixture.call("POST", "/proxies/decaf/toxics", #"{"name":"l\#(round)","type":"latency","attributes":{"latency":1}}"#).status == 200)
            #expect(await fixture.call("DELETE", "/proxies/decaf/toxics/l\(round)").status == 204)
        }
        #expect(await fixture.call("DELETE", "/proxies/decaf/toxics/hole").status == 204)
        client.send("late")
        let got = await client.received(count: 4)
        #expect(got == Array("late".utf8), "sent after the answer, it meets no blackhole: \(String(decoding: got, as: UTF8.self))")
        client.close()
        try await fixture.close()
    }
}
