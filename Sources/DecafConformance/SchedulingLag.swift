/// How late the suite's own timers fired while a case ran: a timer set to fire every `tick` beside
/// the case, and the most it fired late. A case's times are measured on the suite's clock, so a
/// failure reached while the suite was held up (a loaded machine) says nothing sure of the target;
/// the runner runs it again alone (`CaseAttempt.isSuspect`).
enum SchedulingLag {
    static let tick: Duration = .milliseconds(20)

    /// Runs `body`, returning its result and the most a timer beside it fired late.
    static func measure<Result: Sendable>(during body: @escaping @Sendable () async -> Result) async -> (Result, Duration) {
        await withTaskGroup(of: Outcome<Result>.self) { group in
            group.addTask { .done(await body()) }
            group.addTask {
                var lag = Duration.zero
                while !Task.isCancelled {
                    let before = ContinuousClock.now
                    try? await Task.sleep(for: tick)
                    lag = max(lag, ContinuousClock.now - before - tick)
                }
                return .lag(lag)
            }
            var result: Result?
            var lag = Duration.zero
            for await outcome in group {
                switch outcome {
                case let .done(value):
                    result = value
                    group.cancelAll()
                case let .lag(most):
                    lag = most
                }
            }
            return (result!, lag)
        }
    }

    private enum Outcome<Value: Sendable>: Sendable {
        case done(Value)
        case lag(Duration)
    }
}
