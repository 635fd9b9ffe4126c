import DecafSession
import Foundation

/// A weak network that changes with time: phases, each with its toxics for a while, optionally
/// resetting every open connection as it starts (a phone moving to another network), played once or
/// over and over. A profile is a timeline; a custom one is read from a JSON file.
public struct ProxyTimeline: Hashable, Sendable {
    public struct Phase: Hashable, Sendable {
        public var name: String
        /// How long the phase lasts; nil for the last phase of a timeline that does not repeat: for
        /// good.
        public var duration: Duration?
        public var toxics: ProxyToxics
        /// Every open connection is reset as the phase starts.
        public var resetsConnections: Bool

        public init(name: String, duration: Duration? = nil, toxics: ProxyToxics, resetsConnections: Bool = false) {
            self.name = name
            self.duration = duration
            self.toxics = toxics
            self.resetsConnections = resetsConnections
        }
    }

    public var phases: [Phase]
    public var repeats: Bool

    public init(phases: [Phase], repeats: Bool = false) {
        self.phases = phases
        self.repeats = repeats
    }

    /// The same toxics for good.
    public init(toxics: ProxyToxics) {
        self.init(phases: [Phase(name: "steady", toxics: toxics)])
    }

    /// Each phase's toxics followed by `extra`.
    public func adding(_ extra: ProxyToxics) -> ProxyTimeline {
        var timeline = self
        for index in timeline.phases.indices { timeline.phases[index].toxics = timeline.phases[index].toxics.appending(extra) }
        return timeline
    }

    private struct FileJSON: Decodable {
        struct PhaseJSON: Decodable {
            var name: String?
            var duration: String?
            var profile: String?
            var reset: Bool?
            var toxics: [ProxyToxicJSON]?
        }

        var phases: [PhaseJSON]
        var `repeat`: Bool?
    }

    /// Reads a timeline file: `{"repeat": true, "phases": [{"name": "lost", "duration": "3s",
    /// "reset": false, "profile": "wifi", "toxics": [{"type": "blackhole"}]}, ...]}`; a phase's
    /// toxics are its profile's (if any) then its own; every phase but a last one that does not
    /// repeat needs a duration.
    public init(json: Data) throws(ToxicCatalog.Problem) {
        let file: FileJSON
        do { file = try JSONDecoder().decode(FileJSON.self, from: json) } catch {
            throw ToxicCatalog.Problem("not a timeline: \(Self.reason(error))")
        }
        guard !file.phases.isEmpty else { throw ToxicCatalog.Problem("a timeline needs at least one phase") }
        var phases: [Phase] = []
        for (index, entry) in file.phases.enumerated() {
            let name = entry.name ?? "phase \(index + 1)"
            func problem(_ text: String) -> ToxicCatalog.Problem { ToxicCatalog.Problem("phase '\(name)': \(text)") }
            var duration: Duration?
            if let text = entry.duration {
                do { duration = try WrittenDuration.parse(text) } catch { throw problem("duration: \(error)") }
                guard duration ?? .zero > .zero else { throw problem("duration must be longer than 0") }
            } else if file.repeat == true || index < file.phases.count - 1 {
                throw problem("needs a duration, such as \"3s\" (only the last phase of a timeline that does not repeat lasts for good)")
            }
            var toxics = ProxyToxics()
            if let profileName = entry.profile {
                guard let profile = ProxyProfile(rawValue: profileName), profile.timeline.phases.count == 1 else {
                    throw problem("'\(profileName)' is not a steady profile; give \(ProxyProfile.allCases.filter { $0.timeline.phases.count == 1 }.map(\.rawValue).joined(separator: ", "))")
                }
                toxics = profile.timeline.phases[0].toxics
            }
            for toxic in entry.toxics ?? [] {
                do { try toxic.add(to: &toxics) } catch { throw problem(error.description) }
            }
            phases.append(Phase(name: name, duration: duration, toxics: toxics, resetsConnections: entry.reset ?? false))
        }
        self.init(phases: phases, repeats: file.repeat ?? false)
    }

    private static func reason(_ error: Error) -> String {
        switch error as? DecodingError {
        case let .keyNotFound(key, context)?: "'\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))' is missing"
        case let .typeMismatch(_, context)?, let .valueNotFound(_, context)?, let .dataCorrupted(context)?:
            "at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)"
        default: "it is not JSON"
        }
    }
}
