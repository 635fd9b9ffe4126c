import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Why a socket could not be opened, in the words a user knows from other tools ("connection
/// refused", "address already in use", "cannot resolve the host name") instead of NIO's type dump.
public enum ConnectionFailure {
    /// Why an attempt to connect to `server` failed, in one line: "cannot connect to
    /// 127.0.0.1:1: connection refused", or, for a server that accepts and resets at once,
    /// "127.0.0.1:7447 reset the connection as soon as it was made".
    public static func attempt(to server: HostAndPort, failed error: any Error) -> String {
        let why = reason(error)
        if why == String(cString: strerror(ECONNRESET)).lowercased() {
            return "\(server) reset the connection as soon as it was made (\(why))"
        }
        return "cannot connect to \(server): \(why)"
    }

    /// Why a connection to `server` still attempted after `waited` is given up: nothing accepted it,
    /// as a client's socket in SYN-SENT shows.
    public static func notAccepted(_ server: HostAndPort, waited: Duration) -> String {
        let tenths = Int((waited / .milliseconds(100)).rounded())
        return "\(server) did not accept the connection within \(tenths / 10).\(tenths % 10) seconds: the attempt was still waiting for an answer to its SYN. "
            + "A server whose listen backlog is full (it does not accept connections), a host that is down, or a firewall that drops packets looks like this"
    }

    /// The reason `error` gives, for a line such as "cannot connect to 127.0.0.1:1: connection refused".
    public static func reason(_ error: any Error) -> String {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return reason(first.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "cannot resolve the host name" }
            return "no address to connect to"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode)).lowercased()
        case is SocketAddressError.UnknownHost:
            return "cannot resolve the host name"
        case let error as SocketAddressError:
            if case .unknown = error { return "cannot resolve the host name" }
            return "not an address this machine can use"
        case ChannelError.connectTimeout:
            return "timed out"
        default:
            return "\(error)"
        }
    }
}
