/// Runs a suite's cases several at once and hands each result on as it comes: the one place where
/// the server, client and codec suites get their concurrency and their stop. A run stops early when
/// its task is cancelled (the user's Ctrl-C: the cases under way are cut short and their results
/// dropped, since no verdict was reached) or when `completed` says so (the target stopped
/// answering); either way the results reached so far are kept.
struct CaseScheduler {
    /// Cases at once.
    var jobs: Int

    /// Runs case `index` for each of `0..<count` with `body`, `jobs` at a time, and hands each
    /// result to `completed` in the order they finish; no case starts after `completed` returns
    /// false or the task is cancelled. Returns whether every case ran.
    @discardableResult
    func run<Result: Sendable>(count: Int, _ body: @escaping @Sendable (Int) async -> Result,
                               completed: (Int, Result) async -> Bool) async -> Bool {
        var stopped = false
        await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            func launch() {
                guard next < count, !stopped, !Task.isCancelled else { return }
                let index = next
                next += 1
                group.addTask { (index, await body(index)) }
            }
            for _ in 0..<max(1, jobs) { launch() }
            for await (index, result) in group {
                // A case cut short by cancellation reached no verdict.
                guard !Task.isCancelled else { continue }
                if !stopped, await !completed(index, result) {
                    stopped = true
                    group.cancelAll()
                }
                launch()
            }
        }
        return !stopped && !Task.isCancelled
    }
}
