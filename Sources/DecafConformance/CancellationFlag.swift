import Synchronization

/// A flag that a task's cancellation handler raises and a blocking wait on another thread reads:
/// how a wait that cannot itself be cancelled learns to give up.
final class CancellationFlag: Sendable {
    private let raised = Atomic(false)

    /// A flag not raised yet.
    init() {}

    /// Raises the flag, for good.
    func raise() { raised.store(true, ordering: .relaxed) }

    /// Whether the flag has been raised.
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
