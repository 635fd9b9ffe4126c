import Synchronization

/// Whether SIGINT or SIGTERM came, set by a `SignalWaiter` watcher and read by synchronous work
/// (a capture read a chunk at a time) that stops at its next chance and keeps what it has.
final class InterruptFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    /// Sets the flag when `signals` catches a signal; the watcher ends with the task that awaits it.
    init(watching signals: SignalWaiter) {
        Task { [self] in
            if await signals.next() != nil { raised.store(true, ordering: .relaxed) }
        }
    }

    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
