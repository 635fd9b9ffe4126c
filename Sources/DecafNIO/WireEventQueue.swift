import NIOConcurrencyHelpers

/// Events of one connection, handed out one at a time, in order, to whoever awaits them, with a
/// timeout. Events are queued as they arrive, so none is lost while nobody is waiting; several
/// waiters are served first come, first served, each with its own timeout.
final class WireEventQueue: Sendable {
    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<WireEvent?, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        /// Events not yet handed out start at `head`; handed-out ones are dropped in batches.
        var events: [WireEvent] = []
        var head = 0
        var waiters: [Waiter] = []
        var lastID = 0

        mutating func takeEvent() -> WireEvent? {
            guard head < events.count else { return nil }
            let event = events[head]
            head += 1
            if head >= 64 && head * 2 >= events.count {
                events.removeFirst(head)
                head = 0
            }
            return event
        }
    }

    private let state = NIOLockedValueBox(State())

    func push(_ event: WireEvent) {
        let waiter: Waiter? = state.withLockedValue { state in
            guard !state.waiters.isEmpty else {
                state.events.append(event)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: event)
    }

    /// The next event, or nil if none arrives within `timeout` or the task is cancelled.
    func next(timeout: Duration) async -> WireEvent? {
        let id = state.withLockedValue { state -> Int in
            state.lastID += 1
            return state.lastID
        }
        return await withTaskCancellationHandler {
            await next(id: id, timeout: timeout)
        } onCancel: {
            expire(id)
        }
    }

    private func next(id: Int, timeout: Duration) async -> WireEvent? {
        guard !Task.isCancelled else { return nil }
        return await withCheckedContinuation { continuation in
            let ready: WireEvent?? = state.withLockedValue { state in
                if let event = state.takeEvent() { return .some(event) }
                state.waiters.append(Waiter(id: id, continuation: continuation))
                return .none
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            let timer = Task {
                do {
                    try await Task.sleep(for: timeout)
                    self.expire(id)
                } catch {}
            }
            let stillWaiting = state.withLockedValue { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
                state.waiters[index].timer = timer
                return true
            }
            if !stillWaiting { timer.cancel() }
            // A cancellation that came before the waiter was registered found nothing to expire.
            if Task.isCancelled { expire(id) }
        }
    }

    /// How many callers are waiting for an event.
    var waiterCount: Int { state.withLockedValue { $0.waiters.count } }

    /// Resumes waiter `id` with nil if it is still waiting.
    private func expire(_ id: Int) {
        let waiter = state.withLockedValue { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: nil)
    }
}
