import DecafConformance

/// A fuzz input as a server was asked it, for a finding's diagnosis: the case, and the identity
/// (version, features) the server gave and the case was judged against.
public struct ServerFuzzCase: Sendable {
    public var conformanceCase: ConformanceCase
    public var identity: TargetIdentity
}
