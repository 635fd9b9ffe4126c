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

    @Test("toxics are named toxiproxy's way, TYPE_STREAM, numbered when taken; down on either stream takes the network down")
    func names() {
        var toxics = ProxyToxics(upstream: [.blackhole, .blackhole])
        #expect(toxics.toxics.map(\.name) == ["blackhole_upstream", "blackhole_upstream_2"])
        #expect(!toxics.isDown)
        toxics.add(.down, stream: .downstream)
        #expect(toxics.toxics.map(\.name).last == "down_downstream")
        #expect(toxics.isDown)
    }

    @Test("every toxic type reads from a timeline in toxiproxy's units: milliseconds, the slicer's delay in microseconds, KB/s", arguments: [
        (#"{"type": "latency", "attributes": {"latency": 250, "jitter": 20}}"#, Toxic.latency(.milliseconds(250), jitter: .milliseconds(20))),
        (#"{"type": "bandwidth", "attributes": {"rate": 64}}"#, .bandwidth(bytesPerSecond: 64 * 1024)),
        (#"{"type": "slicer", "attributes": {"average_size": 64, "size_variation": 8, "delay": 500}}"#,
         .slicer(averageSize: 64, sizeVariation: 8, delay: .microseconds(500))),
        (#"{"type": "slow_close", "attributes": {"delay": 1000}}"#, .slowClose(.seconds(1))),
        (#"{"type": "timeout", "attributes": {"timeout": "2s"}}"#, .timeout(.seconds(2))),
        (#"{"type": "reset_peer", "attributes": {"timeout": 3000}}"#, .resetPeer(.seconds(3))),
        (#"{"type": "limit_data", "attributes": {"bytes": 1000}}"#, .limitData(1000)),
        (#"{"type": "blackhole"}"#, .blackhole),
        (#"{"type": "down"}"#, .down),
        (#"{"type": "packet_loss", "attributes": {"probability": 0.25, "rto": 300}}"#, .packetLoss(probability: 0.25, retransmissionTimeout: .milliseconds(300))),
        (#"{"type": "drop_frames", "attributes": {"probability": "30%", "types": "ACK+HEARTBEAT"}}"#, .dropFrames(probability: 0.3, types: [.ack, .heartbeat])),
        (#"{"type": "duplicate_frames", "attributes": {"probability": 0.1}}"#, .duplicateFrames(probability: 0.1)),
        (#"{"type": "corrupt_frames", "attributes": {"probability": 0.2}}"#, .corruptFrames(probability: 0.2)),
        (#"{"type": "cut_frames", "attributes": {"probability": 0.05}}"#, .cutFrames(probability: 0.05)),
    ])
    func everyType(json: String, toxic: Toxic) throws {
        let timeline = try ProxyTimeline(json: Data(#"{"phases": [{"toxics": [\#(json)]}]}"#.utf8))
        #expect(timeline.phases[0].toxics.on(.upstream) == [ActiveToxic(toxic)])
        #expect(timeline.phases[0].toxics.toxics.map(\.name) == ["\(ToxicCatalog.type(of: toxic))_upstream", "\(ToxicCatalog.type(of: toxic))_downstream"])
    }

    @Test("the catalog names every toxic it reads")
    func everyTypeNamed() {
        #expect(Set(Self.everyTypeArguments.map { ToxicCatalog.type(of: $0) }) == Set(ToxicCatalog.types))
    }

    static let everyTypeArguments: [Toxic] = [.latency(.zero, jitter: .zero), .bandwidth(bytesPerSecond: 1), .slicer(averageSize: 1, sizeVariation: 0, delay: .zero),
                                              .slowClose(.zero), .timeout(.zero), .resetPeer(.zero), .limitData(0), .blackhole, .down, .noop,
                                              .packetLoss(probability: 0, retransmissionTimeout: .zero), .dropFrames(probability: 0, types: nil),
                                              .duplicateFrames(probability: 0), .corruptFrames(probability: 0), .cutFrames(probability: 0)]
}
