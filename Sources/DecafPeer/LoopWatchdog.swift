import NIOCore

/// Measures how late an event loop runs its timers, so a verdict on time can be set aside when the
/// suite itself was held up (a loaded machine, a case next door busy with megabytes): a timer every
/// 20 ms notes how far past its deadline it ran. Runs on its event loop from `start()` to `stop()`.
final class LoopWatchdog {
    private let eventLoop: EventLoop
    private var timer: Scheduled<Void>?
    /// The longest the event loop ran late so far.
    private(set) var held: Duration = .zero

    /// How often the watchdog looks at the event loop's clock.
    private static let interval = TimeAmount.milliseconds(20)

    init(eventLoop: EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Starts watching; call on the event loop.
    func start() {
        watch(expecting: .now() + Self.interval)
    }

    /// Stops watching; `held` keeps what was measured.
    func stop() {
        timer?.cancel()
    }

    private func watch(expecting deadline: NIODeadline) {
        timer = eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            let now = NIODeadline.now()
            held = max(held, .nanoseconds((now - deadline).nanoseconds))
            watch(expecting: now + Self.interval)
        }
    }
}
