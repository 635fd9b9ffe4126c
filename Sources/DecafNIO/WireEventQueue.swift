import DecafWire
import NIOConcurrencyHelpers

/// Events of one connection, handed out one at a time, in order, to whoever awaits them, with a
/// timeout. Events are queued as they arrive, so none is lost while nobody is waiting; several
/// waiters are served first come, first served, each with its own timeout. The frames waiting are
/// bounded: past `budget` bytes of them the queue asks its connection to stop reading
/// (`pressure(true)`), and to read again once half of them are taken, so a peer that sends
/// without end waits on TCP, not in this process's memory.
final class WireEventQueue: Sendable {
    /// Bytes of frames waiting past which the connection stops reading.
    let budget: Int
    /// Told `true` when the frames waiting pass the budget, `false` when they are back under half.
    private let pressure = NIOLockedValueBox<(@Sendable (Bool) -> Void)?>(nil)

    init(budget: Int = 4 << 20) {
        self.budget = budget
    }

    /// Sets what is told when the frames waiting pass the budget and come back under it.
    func onPressure(_ handler: @escaping @Sendable (Bool) -> Void) {
        pressure.withLockedValue { $0 = handler }
    }
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
        /// Bytes of the frames waiting, and whether the connection was asked to stop reading.
        var waitingBytes = 0
        var paused = false

        /// The next event, and whether the connection may read again now.
        mutating func takeEvent(budget: Int) -> (WireEvent, resume: Bool)? {
            guard head < events.count else { return nil }
            let event = events[head]
            head += 1
            if head >= 64 && head * 2 >= events.count {
                events.removeFirst(head)
                head = 0
            }
            waitingBytes -= Self.size(of: event)
            let resume = paused && waitingBytes <= budget / 2
            if resume { paused = false }
            return (event, resume)
        }

        /// What an event costs while it waits: a frame's bytes.
        static func size(of event: WireEvent) -> Int {
            if case let .frame(frame) = event { FrameHeader.size + frame.payload.count } else { 0 }
        }
    }

    private let state = NIOLockedValueBox(State())

    func push(_ event: WireEvent) {
        let budget = budget
        let (waiter, pause): (Waiter?, Bool) = state.withLockedValue { state in
            guard !state.waiters.isEmpty else {
                state.events.append(event)
                state.waitingBytes += State.size(of: event)
                let pause = !state.paused && state.waitingBytes > budget
                if pause { state.paused = true }
                return (nil, pause)
            }
            return (state.waiters.removeFirst(), false)
        }
        if pause { pressure.withLockedValue { $0 }?(true) }
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
            let ready: (WireEvent, resume: Bool)? = state.withLockedValue { state in
                if let taken = state.takeEvent(budget: budget) { return taken }
                state.waiters.append(Waiter(id: id, continuation: continuation))
                return nil
            }
            if let (event, resume) = ready {
                if resume { pressure.withLockedValue { $0 }?(false) }
                continuation.resume(returning: event)
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
