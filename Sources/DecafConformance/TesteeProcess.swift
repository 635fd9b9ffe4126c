import DecafNIO
#if canImport(Glibc)
import Glibc
#endif

/// A codec under test, started as a process and driven a line at a time over its standard input
/// and output (Specs/conform-testee.md). Its three pipes are served together: a request is written
/// while whatever the testee writes is read, so neither side can block the other however much the
/// testee writes, and when it writes what no request asked for (an answer twice, a log line) the
/// bytes are set aside and told, not taken for the next request's answer. A testee that dies is
/// started again for the next request; one that ended without reading a request is started again
/// and asked once more, and its exit is told as its own. What it writes to standard error is kept,
/// its last 16 KiB, to quote its last line.
final class TesteeProcess {
    let command: [String]
    /// What the testee's environment adds to the suite's (a coverage map's name).
    let environment: [String: String]
    /// The longest answer line kept; a longer one ends the testee (the run's memory bound).
    let lineLimit: Int
    private var process: SpawnedProcess?
    /// This end of the testee's standard input, output and error, non-blocking, or -1.
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var errors: Int32 = -1
    /// Output read and not yet an answer.
    private var buffered: [UInt8] = []
    /// Bytes of `buffered` already searched for the newline: a long answer is searched once.
    private var searched = 0
    /// The rest of a line no request asked for is still to come: skipped up to its newline.
    private var skippingLine = false
    private var standardError = BoundedOutput(head: 0, tail: 16_384)
    /// What the testee did besides answering, since the driver last took it.
    private var irregularities = TesteeIrregularities()

    /// Why a request got no answer.
    enum Failure: Error, CustomStringConvertible {
        case cannotStart(String)
        /// How it ended, and the last line of its standard error ("" if none).
        case exited(String, lastWords: String)
        case timedOut

        var description: String {
            switch self {
            case let .cannotStart(why): "the testee cannot be started: \(why)"
            case let .exited(why, lastWords): "the testee \(why) before it answered" + Self.quoting(lastWords)
            case .timedOut: "the testee did not answer in time"
            }
        }

        /// `; its standard error ended: ...`, or nothing.
        static func quoting(_ lastWords: String) -> String {
            lastWords.isEmpty ? "" : "; its standard error ended: \(lastWords)"
        }
    }

    /// Whether the run was interrupted: a wait for an answer then ends within `slice`.
    private let isCancelled: () -> Bool

    init(command: [String], environment: [String: String] = [:], lineLimit: Int = 64 << 20, isCancelled: @escaping () -> Bool = { false }) {
        self.command = command
        self.environment = environment
        self.lineLimit = lineLimit
        self.isCancelled = isCancelled
        // A write to a testee that died must fail with EPIPE, not kill the driver.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Sends `line` and returns the testee's answer line, starting the testee first if needed.
    /// The answer must come within `timeout`, the request's writing included. A testee that had
    /// answered before and ended without reading any of this request is started again and asked
    /// once more: its exit is its own (see `takeIrregularities`), not this request's.
    func exchange(_ line: String, timeout: Duration) throws(Failure) -> String {
        let request = Array((line + "\n").utf8)
        let deadline = ContinuousClock.now + timeout
        var retried = false
        while true {
            let answered = answers
            switch ask(request, until: deadline) {
            case let .answer(line):
                answers += 1
                return line
            case let .failed(failure):
                throw failure
            case let .endedUnasked(failure):
                guard answered > 0, !retried, case let .exited(how, words) = failure else { throw failure }
                irregularities.exits.append(how + Failure.quoting(words))
                retried = true
            }
        }
    }

    /// What the testee did besides answering since the last call, and forgets it.
    func takeIrregularities() -> TesteeIrregularities {
        defer { irregularities = TesteeIrregularities() }
        return irregularities
    }

    /// Answers the running process gave.
    private var answers = 0

    /// How one request went.
    private enum Asked {
        case answer(String)
        case failed(Failure)
        /// The testee's process ended without reading any of the request.
        case endedUnasked(Failure)
    }

    private func ask(_ request: [UInt8], until deadline: ContinuousClock.Instant) -> Asked {
        if let process, let ended = process.ended {
            // It exited by itself after its last answer, with no request outstanding.
            drainErrors()
            irregularities.exits.append(ended.description + Failure.quoting(lastWords))
            stop()
        }
        do throws(Failure) {
            if process == nil { try start() }
        } catch {
            return .failed(error)
        }
        do throws(PipeProblem) {
            try setAsideUnrequested()
            try write(request, until: deadline)
            return .answer(try readLine(until: deadline))
        } catch {
            switch error {
            case .ended:
                let unread = unreadInput
                let failure = stopped()
                return unread == written ? .endedUnasked(failure) : .failed(failure)
            case let .failed(failure):
                return .failed(failure)
            }
        }
    }

    deinit {
        stop()
    }

    /// Stops the testee.
    func stop() {
        for descriptor in [input, output, errors] where descriptor >= 0 { close(descriptor) }
        process?.stop()
        input = -1
        output = -1
        errors = -1
        process = nil
    }

    private func start() throws(Failure) {
        stop()
        let started: SpawnedProcess
        do {
            started = try SpawnedProcess(executable: TesteeLaunch.executable, arguments: command, environment: TesteeLaunch.environment(environment),
                                         standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        } catch { throw .cannotStart(error.description) }
        process = started
        input = started.pipes.input ?? -1
        output = started.pipes.output ?? -1
        errors = started.pipes.error ?? -1
        for descriptor in [input, output, errors] { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        buffered = []
        searched = 0
        skippingLine = false
        answers = 0
        standardError = BoundedOutput(head: 0, tail: 16_384)
    }

    // MARK: - The pipes

    /// How a wait on the pipes went wrong.
    private enum PipeProblem: Error {
        /// The testee's output ended or its input is gone: it is on its way out.
        case ended
        case failed(Failure)
    }

    /// Bytes of the request under way written so far.
    private var written = 0

    /// The longest one wait on the pipes lasts before the run looks for an interruption.
    private static let slice = Duration.milliseconds(100)

    /// Whatever the testee wrote since its last answer, before this request is written: no request
    /// asked for it.
    private func setAsideUnrequested() throws(PipeProblem) {
        var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 0) > 0 {
            guard try readOutput(answering: false) > 0 else { break }
        }
        drainErrors()
    }

    /// Writes `request` while reading what the testee writes meanwhile (none of it can be the
    /// request's answer: the request is not all there yet).
    private func write(_ request: [UInt8], until deadline: ContinuousClock.Instant) throws(PipeProblem) {
        written = 0
        while written < request.count {
            let ready = try wait(for: [(input, POLLOUT), (output, POLLIN), (errors, POLLIN)], until: deadline)
            if ready[1] != 0 { _ = try readOutput(answering: false) }
            if ready[2] != 0 { drainErrors() }
            guard ready[0] != 0 else { continue }
            let count = request.withUnsafeBytes { Glibc.write(input, $0.baseAddress! + written, request.count - written) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .ended
            }
            written += count
        }
    }

    private func readLine(until deadline: ContinuousClock.Instant) throws(PipeProblem) -> String {
        while true {
            if let newline = buffered[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                // What follows its answer in the same breath was asked for by no request.
                let after = buffered[(newline + 1)...]
                if !after.isEmpty {
                    irregularities.unrequested(after, beforeRequest: false)
                    skippingLine = after.last != UInt8(ascii: "\n")
                }
                buffered = []
                searched = 0
                return line
            }
            searched = buffered.count
            let ready = try wait(for: [(output, POLLIN), (errors, POLLIN)], until: deadline)
            if ready[0] != 0 { _ = try readOutput(answering: true) }
            if ready[1] != 0 { drainErrors() }
        }
    }

    /// Reads what the testee wrote on its output: part of an answer, or, when not `answering` or
    /// while the rest of an unrequested line comes, bytes no request asked for. Returns how many.
    private func readOutput(answering: Bool) throws(PipeProblem) -> Int {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return 0 }
        guard count > 0 else { throw .ended }
        var bytes = chunk[..<count]
        if skippingLine {
            let newline = bytes.firstIndex(of: UInt8(ascii: "\n"))
            let skipped = bytes[..<(newline.map { $0 + 1 } ?? bytes.endIndex)]
            irregularities.unrequestedBytes += skipped.count
            skippingLine = newline == nil
            bytes = bytes[skipped.endIndex...]
        }
        guard !bytes.isEmpty else { return count }
        if !answering {
            irregularities.unrequested(bytes, beforeRequest: true)
            skippingLine = bytes.last != UInt8(ascii: "\n")
            return count
        }
        buffered += bytes
        if buffered.count > lineLimit {
            throw .failed(stop(saying: "sent a line longer than \(lineLimit >> 20) MiB"))
        }
        return count
    }

    /// Keeps what the testee wrote on its standard error so far, its last 16 KiB.
    private func drainErrors() {
        guard errors >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            standardError.append(chunk[..<count])
        }
    }

    /// Waits until one of `watched` is ready, a slice at a time so that an interruption is seen:
    /// the events each got, in order.
    private func wait(for watched: [(Int32, Int32)], until deadline: ContinuousClock.Instant) throws(PipeProblem) -> [Int16] {
        var pollers = watched.map { pollfd(fd: $0.0, events: Int16($0.1), revents: 0) }
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, !isCancelled() else {
                stop()
                throw .failed(.timedOut)
            }
            let (seconds, attoseconds) = min(remaining, Self.slice).components
            let ready = poll(&pollers, nfds_t(pollers.count), Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
            if ready > 0 { return pollers.map(\.revents) }
            if ready < 0 && errno != EINTR { throw .ended }
        }
    }

    /// Bytes written to the testee's input that it has not read (a pipe tells either end).
    private var unreadInput: Int {
        var count: Int32 = 0
        return input >= 0 && ioctl(input, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// Stops the testee, and the failure that says `why`.
    private func stop(saying why: String) -> Failure {
        stop()
        return .exited(why, lastWords: "")
    }

    /// The failure for a testee that is gone, after reaping it.
    private func stopped() -> Failure {
        guard let process else { return .exited("is not running", lastWords: "") }
        // Its pipe closed: it is on its way out. Half a second to exit by itself, so its status is
        // its own (env's 127 for a command not found) rather than the SIGTERM of the stop.
        process.wait(limit: .milliseconds(500))
        drainErrors()
        process.stop()
        let ended = process.wait()
        let words = lastWords
        stop()
        if case let .exited(status) = ended, TesteeLaunch.neverStarted(status: status) {
            return .cannotStart("\(command.first ?? "") cannot be run (status \(status))" + Failure.quoting(words))
        }
        return .exited(ended.description, lastWords: words)
    }

    /// What the testee said last on its standard error (`LastWords`), or "".
    private var lastWords: String {
        LastWords.of(String(decoding: standardError.tail, as: UTF8.self))
    }
}
