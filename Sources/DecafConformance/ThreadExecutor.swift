import Foundation

/// A task executor with a thread of its own, for a suite whose every case hops between a blocking
/// wait on its own thread and the runner: on the shared cooperative pool, busy with other work (a
/// test run's hundreds of tests, say), each hop would wait its turn, and a run of 314 codec cases
/// that takes seconds alone took minutes. Jobs run in the order they come. Its thread holds it, and
/// both live as long as the process.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []

    init(name: String) {
        let thread = Thread { self.run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
