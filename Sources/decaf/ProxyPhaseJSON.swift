/// `decaf proxy --json`: a timeline phase starting, `at` UNIX time in seconds.
struct ProxyPhaseJSON: Encodable {
    var phase: String
    var at: Double
    var reset: Bool
}
