/// What the scripted server's shell must do after the server handled an event, in order.
public enum ScriptedServerAction: Hashable, Sendable {
    /// Write these bytes on connection `connection` (from 0), in a write of their own.
    case write(connection: Int, bytes: [UInt8], label: String)
    case close(connection: Int)
    /// Close with a reset (RST): SO_LINGER with a zero timeout.
    case reset(connection: Int)
    /// Call `timerFired(token)` after this long.
    case schedule(token: Int, after: Duration)
    /// Close the listener, and listen again on the same port after this long.
    case refuseConnections(for: Duration)
    /// The script has seen what the case needs: end the case.
    case finish
}
