import DecafProxy
import DecafSession
import Foundation
import Testing

/// Timeline files and toxics written as toxiproxy's API writes them.
@Suite("proxy timelines")
struct ProxyTimelineTests {
    @Test("a timeline file: phases with durations, a profile's toxics then the phase's own, resets, repeat")
    func file() throws {
        let json = """
        {"repeat": true, "phases": [
          {"name": "good", "duration": "2s", "profile": "wifi"},
          {"name": "gone", "duration": "1500ms", "toxics": [{"type": "blackhole"}]},
          {"name": "back", "duration": "3s", "reset": true,
           "toxics": [{"type": "latency", "stream": "downstream", "attributes": {"latency": 60, "jitter": "20ms"}},
                      {"type": "drop_frames", "toxicity": 0.5, "attributes": {"probability": 1, "types": "ACK"}}]}
        ]}
        """
        let timeline = try ProxyTimeline(json: Data(json.utf8))
        #expect(timeline.repeats)
        #expect(timeline.phases.map(\.name) == ["good", "gone", "back"])
        #expect(timeline.phases.map(\.duration) == [.seconds(2), .milliseconds(1500), .seconds(3)])
        #expect(timeline.phases.map(\.resetsConnections) == [false, false, true])
        #expect(timeline.phases[0].toxics == ProxyProfile.wifi.timeline.phases[0].toxics)
        #expect(timeline.phases[1].toxics.on(.upstream) == [ActiveToxic(.blackhole)])
        let back = timeline.phases[2].toxics
        #expect(back.on(.downstream) == [ActiveToxic(.latency(.milliseconds(60), jitter: .milliseconds(20))),
                                         ActiveToxic(.dropFrames(probability: 1, types: [.ack]), toxicity: 0.5)])
        #expect(back.on(.upstream) == [ActiveToxic(.dropFrames(probability: 1, types: [.ack]), toxicity: 0.5)])
        #expect(back.toxics.map(\.name) == ["latency_downstream", "drop_frames_upstream", "drop_frames_downstream"])
    }

    @Test("what is wrong with a timeline file is said with the phase it is in", arguments: [
        ("{}", "'phases' is missing"),
        ("{\"phases\": []}", "at least one phase"),
        ("{\"phases\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}", "phase 'a': needs a duration"),
        ("{\"repeat\": true, \"phases\": [{\"name\": \"a\"}]}", "phase 'a': needs a duration"),
        ("{\"phases\": [{\"duration\": \"0s\"}]}", "phase 'phase 1': duration must be longer than 0"),
        ("{\"phases\": [{\"duration\": \"nan\"}]}", "not a duration"),
        ("{\"phases\": [{\"toxics\": [{\"type\": \"teleport\"}]}]}", "'teleport' is not a toxic"),
        ("{\"phases\": [{\"toxics\": [{\"type\": \"latency\"}]}]}", "latency needs latency"),
        ("{\"phases\": [{\"toxics\": [{\"type\": \"blackhole\", \"stream\": \"sideways\"}]}]}", "stream 'sideways'"),
        ("{\"phases\": [{\"toxics\": [{\"type\": \"blackhole\", \"toxicity\": 2}]}]}", "toxicity 2.0 is not from 0 to 1"),
        ("{\"phases\": [{\"toxics\": [{\"type\": \"latency\", \"attributes\": {\"latency\": -5}}]}]}", "-5.0 is not zero or more"),
        ("{\"phases\": [{\"profile\": \"handover\"}]}", "'handover' is not a steady profile"),
        ("[1, 2", "not a timeline"),
    ])
    func refused(json: String, reason: String) {
        #expect {
            _ = try ProxyTimeline(json: Data(json.utf8))
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("toxics are named toxiproxy's way, TYPE_STREAM, numbered when taken; a given name must be free")
    func names() {
        var toxics = ProxyToxics(upstream: [.blackhole, .blackhole])
        #expect(toxics.toxics.map(\.name) == ["blackhole_upstream", "blackhole_upstream_2"])
        #expect(toxics.add(.down, stream: .downstream, name: "blackhole_upstream") == nil)
        #expect(toxics.add(.down, stream: .downstream, name: "cut")?.name == "cut")
        #expect(toxics.isDown)
        #expect(toxics.remove(named: "cut") && !toxics.isDown)
    }

    @Test("a toxic written as toxiproxy's API shows it reads back as the same toxic")
    func roundTrip() throws {
        let all: [Toxic] = [.latency(.milliseconds(250), jitter: .milliseconds(20)), .bandwidth(bytesPerSecond: 64 * 1024),
                            .slicer(averageSize: 64, sizeVariation: 8, delay: .microseconds(500)), .slowClose(.seconds(1)), .timeout(.seconds(2)),
                            .resetPeer(.seconds(3)), .limitData(1000), .blackhole, .down,
                            .packetLoss(probability: 0.25, retransmissionTimeout: .milliseconds(300)),
                            .dropFrames(probability: 0.3, types: [.ack, .heartbeat]), .duplicateFrames(probability: 0.1),
                            .corruptFrames(probability: 0.2), .cutFrames(probability: 0.05)]
        #expect(Set(all.map(ToxicCatalog.type(of:))) == Set(ToxicCatalog.types))
        for toxic in all {
            let shown = ProxyToxicJSON(ProxyToxic(name: "t", stream: .upstream, toxic: toxic))
            let read = try JSONDecoder().decode(ProxyToxicJSON.self, from: JSONEncoder().encode(shown))
            #expect(try read.toxic() == toxic)
        }
    }
}
