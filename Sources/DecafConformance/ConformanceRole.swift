/// Whom a suite checks: a server (`decaf conform server`), a client (`conform client`) or a
/// codec (`conform decoder`). A requirement can bind one role and not another, and at a
/// different level.
public enum ConformanceRole: String, CaseIterable, Sendable, Hashable, Codable {
    case server
    case client
    case codec
}
