import DecafNIO
import DecafSession
import DecafWire

/// The I/O shell of one run of a server case: it does what the case's `ServerJudge` asks on one
/// connection (writes, the end of the stream, reads until a deadline) and hands the judge every
/// event with the case's time, until the verdict. Every write has the run's timeout; every read
/// the deadline the judge gave.
struct ServerCaseDriver {
    let client: WireClient
    let settings: ServerRunSettings
    /// When the case began to connect: the case's time zero.
    let started: ContinuousClock.Instant

    /// Runs `judge` to its verdict; a cancelled task ends the run with no verdict worth keeping.
    func run(_ judge: inout ServerJudge) async -> Verdict {
        var actions = judge.start(at: now)
        var deadline: Duration?
        while !Task.isCancelled {
            guard !actions.isEmpty else {
                guard let until = deadline else { break }
                let remaining = until - now.elapsed
                if remaining > .zero, let event = await client.next(timeout: remaining) {
                    actions = take(event, by: &judge)
                } else {
                    deadline = nil
                    actions = judge.deadlinePassed(at: now)
                }
                continue
            }
            switch actions.removeFirst() {
            case let .write(bytes, label, pause):
                if pause > .zero { try? await Task.sleep(for: pause) }
                do {
                    try await client.send(raw: bytes, label: label, within: settings.timeout)
                    actions += judge.wrote(at: now)
                } catch let stalled as WriteStalled {
                    actions += judge.writeStalled(taken: stalled.taken, total: stalled.total, waited: stalled.waited)
                } catch {
                    actions += judge.writeFailed("\(error)", connectionOpen: client.isOpen && !Task.isCancelled, at: now)
                }
            case let .acknowledge(bytes, label):
                // Not waited for: a target that sends without end and never reads gets no more
                // ACKs once it has not read the last ones, and the case's deadlines still hold.
                client.acknowledge(bytes, label: label)
            case .endStream:
                do {
                    try await client.endStream(within: settings.timeout)
                    actions += judge.wrote(at: now)
                } catch let stalled as WriteStalled {
                    actions += judge.writeStalled(taken: stalled.taken, total: stalled.total, waited: stalled.waited)
                } catch {
                    actions += judge.writeFailed("\(error)", connectionOpen: client.isOpen, at: now)
                }
            case let .wait(until):
                deadline = until
            case let .finish(verdict):
                return verdict
            }
        }
        return Verdict(.harnessError, Task.isCancelled ? "the case was cut short" : "the judge of \(judge.testCase.id) stopped without a verdict")
    }

    private func take(_ event: WireEvent, by judge: inout ServerJudge) -> [ServerCaseAction] {
        switch event {
        case let .frame(frame): judge.received(frame, at: now)
        case let .error(error): judge.failed(error, at: now)
        case .closed: judge.closed(at: now)
        }
    }

    /// The case's time, and the run's clock for the frames' timestamps.
    private var now: SessionTime {
        SessionTime(elapsed: ContinuousClock.now - started, unixSeconds: settings.clock?() ?? CaseFrames.timestamp)
    }
}
