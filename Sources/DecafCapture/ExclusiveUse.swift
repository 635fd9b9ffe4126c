#if DEBUG
import Synchronization
#endif

/// The promise a type makes when its state skips the runtime's exclusivity checks (for speed),
/// checked in debug builds: one use at a time. The type brackets each use of that state with
/// `enter()` and `leave()`, and a use that begins while another is under way (two threads, or a
/// copy of a value sharing the same objects) stops the program with `what` named. In a release
/// build it holds nothing and costs nothing.
public final class ExclusiveUse: Sendable {
    #if DEBUG
    private let inUse = Atomic<Bool>(false)
    private let what: String
    #endif

    public init(_ what: String) {
        #if DEBUG
        self.what = what
        #endif
    }

    @inline(__always)
    public func enter() {
        #if DEBUG
        let (entered, _) = inUse.compareExchange(expected: false, desired: true, ordering: .acquiring)
        precondition(entered, "\(what) was used from two places at once, though its state skips exclusivity checks")
        #endif
    }

    @inline(__always)
    public func leave() {
        #if DEBUG
        inUse.store(false, ordering: .releasing)
        #endif
    }
}
