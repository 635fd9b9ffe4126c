import DecafProxy
import DecafSession
import DecafWire

/// A toxic on the command line, with toxiproxy's type and attribute names:
/// `TYPE[=VALUE]` or `TYPE:ATTRIBUTE=VALUE,...`, then `@upstream` or `@downstream` for one
/// direction only (both without). Durations must say their unit (`latency=50` is refused: 50 ms
/// in toxiproxy's API, 50 s in an option); bandwidth `rate` is KB/s, as in toxiproxy.
struct ToxicArgument: Sendable {
    var toxic: Toxic
    var streams: [ProxyStream]

    @Sendable static func parse(_ text: String) throws(ArgumentProblem) -> ToxicArgument {
        var spec = Substring(text)
        var streams = ProxyStream.allCases
        if let at = spec.lastIndex(of: "@") {
            guard let stream = ProxyStream(rawValue: String(spec[spec.index(after: at)...])) else {
                throw ArgumentProblem("the stream after @ is upstream or downstream")
            }
            streams = [stream]
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
            attributes[ToxicCatalog.mainAttribute[String(type)] ?? String(type)] = String(spec[spec.index(after: equals)...])
        }
        let toxic: Toxic
        do { toxic = try ToxicCatalog.toxic(type: String(type), attributes: attributes) } catch { throw ArgumentProblem(error.description) }
        return ToxicArgument(toxic: toxic, streams: streams)
    }
}
