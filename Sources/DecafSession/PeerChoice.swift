import DecafWire

/// A choice the brief leaves a server, beyond its limits and its timestamp window: a legal server
/// may make it or not, and the suites and fuzzers judge it the same (`decaf peer --choice`, the
/// zoo of legal servers). `refusesFromHeader` (`--refuse-after-body`) and `timestampWindow` are
/// choices of the same kind with settings of their own.
public enum PeerChoice: String, CaseIterable, Hashable, Sendable {
    /// It sends the VERSION_RESPONSE before the ACK of the VERSION_REQUEST: ACK and response may
    /// come in either order (HS-2).
    case responseFirst = "response-first"
    /// It can decrypt, so it takes an AES256 body as opaque and goes on to the checks after
    /// encryption (FRAME-5, interpretation 6): `ReceiverChoice.decryptsAES256` in a server.
    case decryptsAES256 = "decrypts-aes256"
    /// It remembers CONTROL frames across the session's connections, as it does DATA frames: a
    /// longer memory than the brief asks, which breaks no rule (interpretation 15).
    case controlRememberedPerSession = "control-remembered-per-session"
    /// It blames the first field found too deep, so it takes a container one past the depth limit
    /// whose value is empty (TLV-2, interpretation 3): `ReceiverChoice.emptyContainerPastLimit` in a server.
    case emptyContainerPastLimit = "empty-container-past-limit"
    /// It judges a header only once all 28 bytes of it are in, so a stream that ends within a
    /// header is cut short, whatever field it got wrong (interpretation 1):
    /// `ReceiverChoice.wholeHeader` in a server.
    case wholeHeader = "whole-header"

    /// What the choice is, in a line.
    public var summary: String {
        switch self {
        case .responseFirst: "answers a VERSION_REQUEST with the VERSION_RESPONSE first, then the ACK (HS-2: either order)"
        case .decryptsAES256: ReceiverChoice.decryptsAES256.summary
        case .controlRememberedPerSession: "remembers CONTROL frames across a session's connections, as DATA frames are (interpretation 15)"
        case .emptyContainerPastLimit: ReceiverChoice.emptyContainerPastLimit.summary
        case .wholeHeader: ReceiverChoice.wholeHeader.summary
        }
    }
}
