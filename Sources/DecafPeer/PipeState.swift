import Glibc

/// What a pipe's reading end holds, asked without reading it: a testee's output channel owns the
/// descriptor, and the suite only wants to know whether the event loop still has something to read.
enum PipeState {
    /// Whether `descriptor` has bytes, or its end (every writer gone), waiting to be read: poll
    /// with no wait. False for a pipe that is open and empty, as one a grandchild holds is.
    static func hasPending(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN | POLLHUP) != 0
    }
}
