import DecafWire

/// What a client's shell must do after its session handled an event, in order.
public enum ClientAction: Hashable, Sendable {
    /// Open a connection to the server.
    case connect
    /// Write this frame on the open connection.
    case send(OutgoingFrame)
    /// Close the connection once the frames before this action are out.
    case close
    /// Run `timer` after this long, replacing it if it runs already.
    case schedule(ClientTimer, after: Duration)
    /// Stop `timer` if it runs.
    case cancel(ClientTimer)
    /// Tell the application.
    case report(ClientEvent)
    /// Die at once: a planted fault that imitates a crash.
    case abort(reason: String)
    /// Exit at once with `status`, having said `saying` on standard error: a planted fault that
    /// imitates an application dying of an error it did not catch.
    case exit(status: Int32, saying: String)
}
