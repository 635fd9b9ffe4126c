import DecafSession
import DecafWire

extension ScriptedServer {
    /// A connection one case hands to the next case with the same client, in a fuzzing session
    /// (AFLNet-style: one client process is fed many inputs): the server's side of it past its
    /// handshake, what the server remembers of the client's frames, the client's VERSION_REQUEST,
    /// and what the server has sent the client so far (for repeats, REPLAY-1).
    public struct Handoff: Sendable {
        let session: PeerSession
        let replay: ReplayMemory
        let offer: VersionRequest?
        let sent: Set<RepeatKey>

        /// The most frames whose sequence and timestamp a session remembers: past it, a frame the
        /// server sends may be a repeat whatever it is.
        public static let frameLimit = 32_768

        /// Whether the session has sent as many frames as it remembers: it ends, and the next case
        /// starts a client afresh.
        public var isFull: Bool { sent.count >= Self.frameLimit }
    }
}
