import DecafConformance
import DecafNIO
import Glibc
import NIOCore
import NIOPosix

/// The testee processes of one client case, on the case's event loop: started with the case's
/// environment, told the messages to send, their output handed to the driver line by line, the
/// tail of their standard error kept, their exits and the end of their output tracked, and
/// stopped when the case ends. Process management only: what a line or an exit means is the
/// driver's and the `ScriptedServer`'s.
final class ClientTestees {
    /// One testee process and its pipes.
    private struct Testee {
        /// nil when it could not be started.
        var process: SpawnedProcess?
        var pipes: Channel?
        var errors: Channel?
        var exit: ClientObservation.Exit?
        var outputClosed = false
        /// Its standard error ended (or was never read): its last words are all in.
        var errorsClosed = false
        var stopped = false
        /// When the testee's output last brought bytes.
        var lastOutput = NIODeadline.now()
        /// The descriptors its standard output and error are read from, while their channels hold
        /// them (nil once ended: the number may then be another file's).
        var outputDescriptor: Int32?
        var errorDescriptor: Int32?
        var isDone: Bool { exit != nil && outputClosed && errorsClosed }
    }

    private let eventLoop: EventLoop
    private let driver: NIOLoopBound<ClientCaseDriver>
    private var testees: [Testee] = []
    /// Whether the testees' input has been ended: a testee whose pipes open later gets it ended too.
    private var inputEnded = false
    /// What the testees wrote on their standard error: the last 16 KiB, to quote their last line.
    private(set) var standardError = BoundedOutput(head: 0, tail: 16_384)

    /// How long output may stay quiet after a testee exited before it counts as ended.
    private static let quietOutput = TimeAmount.milliseconds(500)
    /// How soon a pipe with something left to read is looked at again, once the loop has read it.
    private static let pendingRecheck = TimeAmount.milliseconds(20)
    /// How long past the quiet time a pipe may still hold something unread before the output
    /// counts as ended anyway: a descriptor whose channel went without a word must not hold the
    /// case (or keep a timer) for ever.
    private static let pendingLimit = TimeAmount.seconds(5)

    init(eventLoop: EventLoop, driver: NIOLoopBound<ClientCaseDriver>) {
        self.eventLoop = eventLoop
        self.driver = driver
    }

    private var bound: NIOLoopBound<ClientTestees> { NIOLoopBound(self, eventLoop: eventLoop) }

    /// Whether every testee has exited and its output has ended (false before any was started).
    var allDone: Bool { !testees.isEmpty && testees.allSatisfy(\.isDone) }

    /// How many testees there are.
    var count: Int { testees.count }

    /// Whether the suite stopped testee `instance`.
    func isStopped(_ instance: Int) -> Bool { testees.indices.contains(instance) && testees[instance].stopped }

    /// Starts `count` testees of `command` with `environment`, each to be told `input` (its lines)
    /// and, when `endsInput`, to see its input end. Returns why each testee that could not be
    /// started could not, by instance.
    func start(_ command: [String], environment: [String: String], count: Int, input: String, endsInput: Bool) -> [Int: String] {
        var failures: [Int: String] = [:]
        for instance in 0..<count {
            let driver = driver
            let eventLoop = eventLoop
            let process: SpawnedProcess
            do {
                process = try SpawnedProcess(
                    executable: TesteeLaunch.executable, arguments: command, environment: environment,
                    standardInput: .pipe, standardOutput: .pipe, standardError: .pipe
                ) { ended in
                    let exit: ClientObservation.Exit = switch ended {
                    case let .signalled(signal): .signal(signal)
                    case let .exited(status): .status(status)
                    }
                    eventLoop.execute { driver.value.exited(instance, exit) }
                }
            } catch {
                failures[instance] = "\(command.first ?? "") cannot be run: \(error.description)"
                testees.append(Testee(process: nil, exit: .cannotStart(""), outputClosed: true, errorsClosed: true))
                continue
            }
            testees.append(Testee(process: process, outputDescriptor: process.pipes.output, errorDescriptor: process.pipes.error))
            let readable = process.pipes.output ?? -1
            let writable = process.pipes.input ?? -1
            if let errors = process.pipes.error { readErrors(errors, of: instance) } else { testees[instance].errorsClosed = true }
            NIOPipeBootstrap(group: eventLoop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(TesteeLineHandler(driver: driver, instance: instance))
                    }
                }
                .takingOwnershipOfDescriptors(input: readable, output: writable)
                .assumeIsolated().whenComplete { [self] result in
                    switch result {
                    case let .success(channel): piped(channel, instance: instance, input: input, endsInput: endsInput)
                    case .failure: driver.value.outputClosed(instance)
                    }
                }
        }
        return failures
    }

    /// Reads what testee `instance` writes on its standard error as it comes, keeping its tail:
    /// a testee that writes without end costs 16 KiB and never blocks on a full pipe.
    private func readErrors(_ descriptor: Int32, of instance: Int) {
        let testees = bound
        NIOPipeBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(TesteeErrorHandler({ bytes in testees.value.standardError.append(bytes) },
                                                                                      onEnd: { testees.value.errorsClosed(instance) }))
                }
            }
            .takingOwnershipOfDescriptor(input: descriptor)
            .assumeIsolated().whenComplete { [self] result in
                if case let .success(channel) = result {
                    self.testees[instance].errors = channel
                } else {
                    close(descriptor)
                    errorsClosed(instance)
                }
            }
    }

    /// The testee's pipes are open: tell it what to send.
    private func piped(_ channel: Channel, instance: Int, input: String, endsInput: Bool) {
        testees[instance].pipes = channel
        if !input.isEmpty { channel.writeAndFlush(ByteBuffer(string: input), promise: nil) }
        if endsInput || inputEnded { endInput(of: instance) }
    }

    /// Ends every testee's input (and that of testees whose pipes open later).
    func endInput() {
        inputEnded = true
        for instance in testees.indices { endInput(of: instance) }
    }

    private func endInput(of instance: Int) {
        testees[instance].pipes?.close(mode: .output, promise: nil)
    }

    /// Notes that testee `instance`'s output brought bytes.
    func outputArrived(_ instance: Int) {
        guard testees.indices.contains(instance) else { return }
        testees[instance].lastOutput = .now()
    }

    /// Notes that testee `instance`'s standard error ended: once it has exited, its case may end.
    private func errorsClosed(_ instance: Int) {
        guard testees.indices.contains(instance), !testees[instance].errorsClosed else { return }
        testees[instance].errorsClosed = true
        testees[instance].errorDescriptor = nil
        if testees[instance].outputClosed { driver.value.outputClosed(instance) }
    }

    /// Notes that testee `instance`'s output ended; false for an instance it does not know.
    func outputClosed(_ instance: Int) -> Bool {
        guard testees.indices.contains(instance) else { return false }
        testees[instance].outputClosed = true
        testees[instance].outputDescriptor = nil
        return true
    }

    /// Notes that testee `instance` exited: the exit as the case sees it (`stopped` when the
    /// suite stopped it), or nil when it is unknown or already noted. Its output then ends once
    /// the suite has read what is left in the pipe; a grandchild may hold the pipe open, so
    /// output quiet for half a second, with nothing left to read, also counts as ended.
    func exited(_ instance: Int, _ exit: ClientObservation.Exit) -> ClientObservation.Exit? {
        guard testees.indices.contains(instance), testees[instance].exit == nil else { return nil }
        let seen = testees[instance].stopped ? .stopped : exit
        testees[instance].exit = seen
        awaitEndOfOutput(instance, at: testees[instance].lastOutput + Self.quietOutput, pendingUntil: .now() + Self.quietOutput + Self.pendingLimit)
        return seen
    }

    /// Ends the testee's output at `deadline` if it has been quiet since, and neither of its pipes
    /// holds bytes or its end still to be read (until `pendingUntil`, past which quiet is enough).
    /// The exit can be seen before the last lines it wrote (on a loaded machine, the exit's notice
    /// ran before the pipe was read): quiet alone once lost a client's last report, which came
    /// after a second without output.
    private func awaitEndOfOutput(_ instance: Int, at deadline: NIODeadline, pendingUntil: NIODeadline) {
        eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            guard !testees[instance].outputClosed || !testees[instance].errorsClosed else { return }
            let now = NIODeadline.now()
            let pending = [testees[instance].outputDescriptor, testees[instance].errorDescriptor].contains { $0.map(PipeState.hasPending) ?? false }
            if now - testees[instance].lastOutput < Self.quietOutput {
                awaitEndOfOutput(instance, at: testees[instance].lastOutput + Self.quietOutput, pendingUntil: pendingUntil)
            } else if pending, now < pendingUntil {
                awaitEndOfOutput(instance, at: now + Self.pendingRecheck, pendingUntil: pendingUntil)
            } else {
                testees[instance].errorsClosed = true
                driver.value.outputClosed(instance)
            }
        }
    }

    /// Stops the testees still running after `grace`: SIGTERM to each one's process group, SIGKILL
    /// a second later; `stopped` runs a second after that.
    func stop(after grace: TimeAmount, then stopped: @escaping () -> Void) {
        let loop = eventLoop.assumeIsolated()
        loop.scheduleTask(in: grace) { [self] in
            terminate()
            loop.scheduleTask(in: .seconds(1)) { [self] in
                kill()
                loop.scheduleTask(in: .seconds(1)) { stopped() }
            }
        }
    }

    /// Stops the testees still running at once (killed if they have not gone a second later).
    func interrupt() {
        terminate()
        eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { [self] in kill() }
    }

    private func terminate() {
        for instance in testees.indices where testees[instance].exit == nil {
            testees[instance].stopped = true
            testees[instance].process?.signalGroup(SIGTERM)
        }
    }

    private func kill() {
        for testee in testees where testee.exit == nil { testee.process?.signalGroup(SIGKILL) }
    }

    /// At the case's end: what the testees started and left behind goes with the case (killed as
    /// each is released, at once for those that have ended, as the rest end), and their pipes are
    /// closed.
    func release() {
        for testee in testees { testee.process?.release() }
        for testee in testees {
            testee.pipes?.close(promise: nil)
            testee.errors?.close(promise: nil)
        }
    }
}
