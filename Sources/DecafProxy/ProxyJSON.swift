/// A proxy as toxiproxy's API writes it: `name`, `listen`, `upstream`, `enabled`, and its toxics.
/// The control API reads the same shape to create or update one (toxics are then ignored, as
/// toxiproxy ignores them).
struct ProxyJSON: Codable, Hashable, Sendable {
    var name: String?
    var listen: String?
    var upstream: String?
    var enabled: Bool?
    var toxics: [ProxyToxicJSON]?
}
