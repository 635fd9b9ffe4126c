import DecafNIO
import DecafWire

/// How the server suite runs a case once: a fresh connection, the case's `ServerJudge` driven by a
/// `ServerCaseDriver`, and the case as a whole bounded by its `limit`.
struct ServerSuiteDriver: SuiteDriver {
    let catalog: ConformanceCatalog
    let settings: ServerRunSettings
    /// What the opening handshake learnt of the target.
    let target: TargetIdentity

    package var jobs: Int { settings.jobs }
    package var repeats: Int { settings.repeats }

    /// Runs `testCase` on a fresh connection, its frames in a session of the execution's own. Every
    /// wait has a deadline (`settings.timeout`), and the case as a whole its `limit`: a case that
    /// reaches it anyway times out. How late the suite's own timers fired meanwhile comes with the
    /// result, so a failure reached while the suite was held up is run again alone.
    package func attempt(_ testCase: ConformanceCase, execution: Int) async -> CaseAttempt {
        let started = ContinuousClock.now
        let client: WireClient
        do {
            client = try await WireClient.connect(host: settings.host, port: settings.port, recordsTranscript: true, timeout: settings.timeout)
        } catch {
            let verdict = Verdict(.harnessError, "cannot connect to \(settings.host):\(settings.port): \(ConnectionFailure.reason(error))")
            return CaseAttempt(result: CaseResult(testCase: testCase, verdict: verdict, transcript: [], duration: ContinuousClock.now - started))
        }
        let limit = Self.limit(of: testCase, settings: settings, profile: catalog.profile)
        let (verdict, held) = await SchedulingLag.measure { [settings, catalog, target] in
            await withTaskGroup(of: Verdict?.self) { group in
                group.addTask {
                    var judge = ServerJudge(testCase: testCase, target: target, timeout: settings.timeout, idleTimeout: catalog.profile.idleTimeout,
                                            session: Self.session(ofExecution: execution), stampsFrames: settings.clock != nil)
                    return await ServerCaseDriver(client: client, settings: settings, started: started).run(&judge)
                }
                group.addTask {
                    try? await Task.sleep(for: limit)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first ?? Verdict(.timeout, "the case did not finish within \(limit), the limit of a case of \(testCase.steps.count) steps with --timeout \(settings.timeout)",
                                        requirements: testCase.requirements)
            }
        }
        await client.close()
        // Only a verdict on time may say more of the suite than of the target when the suite ran
        // late: a prompt ACK or the idle close (judged within tolerances of tens of milliseconds),
        // or a timeout if the suite lost half the wait. Others stand, and are not run again.
        let lateness: Duration? = testCase.isTimed ? TimingTolerance.early : verdict.kind == .timeout ? settings.timeout / 2 : nil
        return CaseAttempt(result: CaseResult(testCase: testCase, verdict: verdict, transcript: client.transcript, duration: ContinuousClock.now - started),
                           held: held, lateness: lateness, targetTimed: testCase.isTimed)
    }

    /// Whether the target still answers a fresh handshake, after cases in a row timed out.
    package func lost() async -> String? {
        do throws(TargetProblem) {
            _ = try await ServerConformanceRunner(catalog: catalog, settings: settings).identify()
            return nil
        } catch {
            return "a fresh handshake failed too: \(error.reason)"
        }
    }

    /// The session of the run's n-th execution (from 0): the catalog's, changed in its low bits, so
    /// no two executions of a run share one (up to 65,535 of them) and none uses the catalog's own.
    static func session(ofExecution number: Int) -> SessionID {
        SessionID(rawValue: CaseFrames.session.rawValue ^ UInt16(number % 65_535 + 1))
    }

    /// The longest `testCase` may take: each step's wait (a write, an answer) at most the timeout,
    /// twice over for the sentinel some expectations send, the pauses between a transmission's
    /// writes, and for the idle case the idle timeout with its tolerance.
    static func limit(of testCase: ConformanceCase, settings: ServerRunSettings, profile: ConformanceProfile) -> Duration {
        var limit = settings.timeout * (2 * testCase.steps.count + 2)
        for step in testCase.steps {
            switch step {
            case let .send(transmission): limit += transmission.pause * transmission.split.count
            case .expect(.idleClose): limit += profile.idleTimeout.map { TimingTolerance.bounds($0).upperBound } ?? .zero
            default: break
            }
        }
        return limit
    }
}
