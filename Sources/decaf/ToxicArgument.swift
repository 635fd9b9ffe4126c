import DecafProxy
import DecafSession
import DecafWire

/// A toxic on the command line, with toxiproxy's type and attribute names:
/// `TYPE[=VALUE]` or `TYPE:ATTRIBUTE=VALUE,...`, then `@upstream` or `@downstream` for one
/// direction only (both without). Durations take a unit; bandwidth `rate` is KB/s, as in toxiproxy.
struct ToxicArgument: Sendable {
    var toxic: Toxic
    var upstream: Bool
    var downstream: Bool

    static let types = "latency, bandwidth, slicer, slow_close, timeout, reset_peer, limit_data, packet_loss, blackhole, "
        + "drop_frames, duplicate_frames, corrupt_frames or cut_frames"

    /// The attribute `TYPE=VALUE` sets.
    private static let mainAttribute = ["latency": "latency", "bandwidth": "rate", "slicer": "average_size", "slow_close": "delay",
                                        "timeout": "timeout", "reset_peer": "timeout", "limit_data": "bytes", "packet_loss": "probability",
                                        "drop_frames": "probability", "duplicate_frames": "probability", "corrupt_frames": "probability",
                                        "cut_frames": "probability"]

    @Sendable static func parse(_ text: String) throws(ArgumentProblem) -> ToxicArgument {
        var spec = Substring(text)
        var upstream = true, downstream = true
        if let at = spec.lastIndex(of: "@") {
            switch spec[spec.index(after: at)...] {
            case "upstream": downstream = false
            case "downstream": upstream = false
            default: throw ArgumentProblem("the stream after @ is upstream or downstream")
            }
            spec = spec[..<at]
        }
        var attributes: [String: String] = [:]
        var type = spec
        if let colon = spec.firstIndex(of: ":") {
            type = spec[..<colon]
            for pair in spec[spec.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw ArgumentProblem("'\(pair)' is not ATTRIBUTE=VALUE") }
                attributes[String(parts[0])] = String(parts[1])
            }
        } else if let equals = spec.firstIndex(of: "=") {
            type = spec[..<equals]
            attributes[mainAttribute[String(type)] ?? String(type)] = String(spec[spec.index(after: equals)...])
        }
        let toxic = try toxic(String(type), attributes)
        return ToxicArgument(toxic: toxic, upstream: upstream, downstream: downstream)
    }

    private static func toxic(_ type: String, _ given: [String: String]) throws(ArgumentProblem) -> Toxic {
        var attributes = given
        func take(_ name: String) -> String? { attributes.removeValue(forKey: name) }
        func duration(_ name: String, required: Bool = true) throws(ArgumentProblem) -> Duration {
            guard let text = take(name) else {
                if required { throw ArgumentProblem("\(type) needs \(name), such as \(type):\(name)=200ms") }
                return .zero
            }
            do { return try DurationArgument.nonNegative(text) } catch { throw ArgumentProblem("\(name): \(error)") }
        }
        func count(_ name: String, _ range: ClosedRange<Int>, required: Bool = true) throws(ArgumentProblem) -> Int {
            guard let text = take(name) else {
                if required { throw ArgumentProblem("\(type) needs \(name), a number") }
                return 0
            }
            do { return try IntegerArgument.within(range)(text) } catch { throw ArgumentProblem("\(name): \(error)") }
        }
        func probability(_ name: String) throws(ArgumentProblem) -> Double {
            guard let text = take(name) else { throw ArgumentProblem("\(type) needs \(name), such as \(type)=0.3 or \(type)=30%") }
            let percent = text.hasSuffix("%")
            guard let value = Double(percent ? String(text.dropLast()) : text), value.isFinite,
                  (0...1).contains(percent ? value / 100 : value) else {
                throw ArgumentProblem("\(name): '\(text)' is not a probability; give 0 to 1, such as 0.3, or a percentage, such as 30%")
            }
            return percent ? value / 100 : value
        }
        let toxic: Toxic
        switch type {
        case "latency": toxic = .latency(try duration("latency"), jitter: try duration("jitter", required: false))
        case "bandwidth": toxic = .bandwidth(bytesPerSecond: try count("rate", 1...1_000_000_000) * 1024)
        case "slicer":
            toxic = .slicer(averageSize: try count("average_size", 1...(1 << 30)), sizeVariation: try count("size_variation", 0...(1 << 30), required: false),
                            delay: try duration("delay", required: false))
        case "slow_close": toxic = .slowClose(try duration("delay"))
        case "timeout": toxic = .timeout(try duration("timeout"))
        case "reset_peer": toxic = .resetPeer(try duration("timeout", required: false))
        case "limit_data": toxic = .limitData(try count("bytes", 0...Int.max))
        case "blackhole": toxic = .blackhole
        case "drop_frames":
            let lost = try probability("probability")
            var types: Set<MessageType>?
            if let names = take("types") {
                types = []
                for name in names.split(separator: "+", omittingEmptySubsequences: false) {
                    do { types?.insert(try WireArgument.named("message type")(String(name))) } catch { throw ArgumentProblem("types: \(error)") }
                }
            }
            toxic = .dropFrames(probability: lost, types: types)
        case "duplicate_frames": toxic = .duplicateFrames(probability: try probability("probability"))
        case "corrupt_frames": toxic = .corruptFrames(probability: try probability("probability"))
        case "cut_frames": toxic = .cutFrames(probability: try probability("probability"))
        case "packet_loss":
            let lost = try probability("probability")
            let rto = try duration("rto", required: false)
            toxic = .packetLoss(probability: lost, retransmissionTimeout: rto > .zero ? rto : .milliseconds(200))
        default: throw ArgumentProblem("'\(type)' is not a toxic; give \(types)")
        }
        if let unknown = attributes.keys.sorted().first { throw ArgumentProblem("\(type) has no attribute '\(unknown)'") }
        return toxic
    }
}
