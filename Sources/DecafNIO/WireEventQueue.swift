import NIOConcurrencyHelpers

/// Events of one connection, handed out one at a time to whoever awaits them, with a timeout.
/// Events are queued as they arrive, so none is lost while nobody is waiting.
final class WireEventQueue: Sendable {
    private struct State {
        var events: [WireEvent] = []
        var next = 0
        var waiter: (id: Int, continuation: CheckedContinuation<WireEvent?, Never>)?
        var timer: Task<Void, Never>?
        var waiters = 0
    }

    private let state = NIOLockedValueBox(State())

    func push(_ event: WireEvent) {
        let waiter: CheckedContinuation<WireEvent?, Never>? = state.withLockedValue { state in
            if let waiter = state.waiter {
                state.waiter = nil
                state.timer?.cancel()
                state.timer = nil
                return waiter.continuation
            }
            state.events.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// The next event, or nil if none arrives within `timeout`.
    func next(timeout: Duration) async -> WireEvent? {
        let id = state.withLockedValue { state -> Int in
            state.waiters += 1
            return state.waiters
        }
        let event: WireEvent? = await withCheckedContinuation { continuation in
            let ready: WireEvent?? = state.withLockedValue { state in
                if state.next < state.events.count {
                    defer { state.next += 1 }
                    return .some(state.events[state.next])
                }
                state.waiter = (id, continuation)
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
            state.withLockedValue { state in
                if state.waiter?.id == id { state.timer = timer } else { timer.cancel() }
            }
        }
        return event
    }

    /// Resumes waiter `id` with nil if it is still waiting.
    private func expire(_ id: Int) {
        let waiter = state.withLockedValue { state -> CheckedContinuation<WireEvent?, Never>? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            state.timer = nil
            return waiter.continuation
        }
        waiter?.resume(returning: nil)
    }
}
