import DecafSession
import DecafWire

/// The toxics by name, with toxiproxy's type and attribute names: how a type and its attributes
/// (from the command line or a timeline file) make a `Toxic`, and the type name of a toxic.
/// Durations without a unit count `bareUnit` seconds (seconds on the command line, milliseconds in
/// a timeline file, as in toxiproxy's API).
public enum ToxicCatalog {
    /// Why a toxic was refused, in the user's words.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public static let types = ["latency", "bandwidth", "slicer", "slow_close", "timeout", "reset_peer", "limit_data", "noop", "packet_loss", "blackhole",
                               "down", "drop_frames", "duplicate_frames", "corrupt_frames", "cut_frames"]

    /// The types, as a message lists them: `latency, bandwidth, ... or cut_frames`.
    public static let typeList = types.dropLast().joined(separator: ", ") + " or " + (types.last ?? "")

    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute = ["latency": "latency", "bandwidth": "rate", "slicer": "average_size", "slow_close": "delay",
                                       "timeout": "timeout", "reset_peer": "timeout", "limit_data": "bytes", "packet_loss": "probability",
                                       "drop_frames": "probability", "duplicate_frames": "probability", "corrupt_frames": "probability",
                                       "cut_frames": "probability"]

    /// The toxic of `type` with `attributes`; every attribute must be one the type has. `lenient`
    /// reads them as toxiproxy's API does: a missing attribute is zero, an unknown one is ignored.
    public static func toxic(type: String, attributes given: [String: String], bareUnit: Double = 1, lenient: Bool = false) throws(Problem) -> Toxic {
        var attributes = given
        func take(_ name: String) -> String? { attributes.removeValue(forKey: name) }
        /// A number's text, "0" when it is missing and the reading is lenient.
        func number(_ name: String) -> String? { take(name) ?? (lenient ? "0" : nil) }
        func duration(_ name: String, required: Bool = true) throws(Problem) -> Duration {
            guard let text = number(name) else {
                if required { throw Problem("\(type) needs \(name), such as \(type):\(name)=200ms") }
                return .zero
            }
            do { return try WrittenDuration.parse(text, bareUnit: bareUnit) } catch { throw Problem("\(name): \(error)") }
        }
        func count(_ name: String, _ range: ClosedRange<Int>, required: Bool = true) throws(Problem) -> Int {
            guard let text = number(name) else {
                if required { throw Problem("\(type) needs \(name), a number") }
                return 0
            }
            guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text), range.contains(value) else {
                throw Problem("\(name): '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        func probability(_ name: String) throws(Problem) -> Double {
            guard let text = number(name) else { throw Problem("\(type) needs \(name), such as \(type)=0.3 or \(type)=30%") }
            let percent = text.hasSuffix("%")
            guard let value = Double(percent ? String(text.dropLast()) : text), value.isFinite,
                  (0...1).contains(percent ? value / 100 : value) else {
                throw Problem("\(name): '\(text)' is not a probability; give 0 to 1, such as 0.3, or a percentage, such as 30%")
            }
            return percent ? value / 100 : value
        }
        let toxic: Toxic
        switch type {
        case "latency": toxic = .latency(try duration("latency"), jitter: try duration("jitter", required: false))
        case "bandwidth": toxic = .bandwidth(bytesPerSecond: try count("rate", (lenient ? 0 : 1)...1_000_000_000) * 1024)
        case "slicer":
            toxic = .slicer(averageSize: try count("average_size", (lenient ? 0 : 1)...(1 << 30)), sizeVariation: try count("size_variation", 0...(1 << 30), required: false),
                            delay: try duration("delay", required: false))
        case "slow_close": toxic = .slowClose(try duration("delay"))
        case "timeout": toxic = .timeout(try duration("timeout"))
        case "reset_peer": toxic = .resetPeer(try duration("timeout", required: false))
        case "limit_data": toxic = .limitData(try count("bytes", 0...Int.max))
        case "blackhole": toxic = .blackhole
        case "down": toxic = .down
        case "noop": toxic = .noop
        case "drop_frames":
            let lost = try probability("probability")
            var types: Set<MessageType>?
            if let names = take("types") {
                types = []
                for name in names.split(separator: "+", omittingEmptySubsequences: false) {
                    let known = (0...255).map { MessageType(rawValue: $0) }.filter(\.isKnown)
                    guard let type = known.first(where: { $0.name?.lowercased() == name.lowercased() }) ?? UInt16(name).map(MessageType.init) else {
                        throw Problem("types: '\(name)' is not a message type; give \(known.map(\.description).joined(separator: ", ")) or a number, joined with +")
                    }
                    types?.insert(type)
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
        default: throw Problem("'\(type)' is not a toxic; give \(typeList)")
        }
        if !lenient, let unknown = attributes.keys.sorted().first { throw Problem("\(type) has no attribute '\(unknown)'") }
        return toxic
    }

    /// The attributes of `toxic` in toxiproxy's units (milliseconds, the slicer's delay in
    /// microseconds, KB/s), as the control API shows them; `toxic(type:attributes:)` reads them back.
    static func attributes(of toxic: Toxic) -> [String: ToxicAttributeValue] {
        func milliseconds(_ duration: Duration) -> ToxicAttributeValue { .number(duration / .milliseconds(1)) }
        func number(_ value: Int) -> ToxicAttributeValue { .number(Double(value)) }
        switch toxic {
        case let .latency(latency, jitter): return ["latency": milliseconds(latency), "jitter": milliseconds(jitter)]
        case let .bandwidth(bytesPerSecond): return ["rate": .number(Double(bytesPerSecond) / 1024)]
        case let .slicer(averageSize, sizeVariation, delay):
            return ["average_size": number(averageSize), "size_variation": number(sizeVariation), "delay": .number(delay / .microseconds(1))]
        case let .slowClose(delay): return ["delay": milliseconds(delay)]
        case let .timeout(timeout), let .resetPeer(timeout): return ["timeout": milliseconds(timeout)]
        case let .limitData(bytes): return ["bytes": number(bytes)]
        case .blackhole, .down, .noop: return [:]
        case let .packetLoss(probability, retransmissionTimeout): return ["probability": .number(probability), "rto": milliseconds(retransmissionTimeout)]
        case let .dropFrames(probability, types):
            var attributes: [String: ToxicAttributeValue] = ["probability": .number(probability)]
            if let types {
                attributes["types"] = .text(types.sorted { $0.rawValue < $1.rawValue }.map { $0.name?.lowercased() ?? String($0.rawValue) }.joined(separator: "+"))
            }
            return attributes
        case let .duplicateFrames(probability), let .corruptFrames(probability), let .cutFrames(probability): return ["probability": .number(probability)]
        }
    }

    /// The type name of `toxic`.
    public static func type(of toxic: Toxic) -> String {
        switch toxic {
        case .latency: "latency"
        case .bandwidth: "bandwidth"
        case .slicer: "slicer"
        case .slowClose: "slow_close"
        case .timeout: "timeout"
        case .resetPeer: "reset_peer"
        case .limitData: "limit_data"
        case .blackhole: "blackhole"
        case .down: "down"
        case .noop: "noop"
        case .packetLoss: "packet_loss"
        case .dropFrames: "drop_frames"
        case .duplicateFrames: "duplicate_frames"
        case .corruptFrames: "corrupt_frames"
        case .cutFrames: "cut_frames"
        }
    }
}
