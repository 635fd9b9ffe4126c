import DecafNIO
import DecafTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// tshark capturing one TCP port on a live interface into a pcapng file, for tests that check
/// `decaf dissect` on real captures. Starting waits for tshark to say the capture started; stopping
/// sends SIGTERM and waits for tshark to write the file out; both wait on threads of their own.
final class TsharkCapture: Sendable {
    let file: URL
    private let process: SpawnedProcess
    /// This end of tshark's standard error.
    private let errors: Int32

    enum Failure: Error {
        case notStarted(String)
        case notStopped
    }

    /// Starts capturing TCP `port` on `interface` into a new file; throws if tshark does not report
    /// the capture started within 20 seconds.
    static func start(interface: String, port: Int) async throws -> TsharkCapture {
        try await ChildProcess.offCooperativeThreads { try TsharkCapture(interface: interface, port: port) }
    }

    /// Stops the capture and waits until tshark has written the file out.
    func finish() async throws {
        try await ChildProcess.offCooperativeThreads { [self] in try stop() }
    }

    private init(interface: String, port: Int, timeout: Duration = .seconds(20)) throws {
        file = FileManager.default.temporaryDirectory.appending(path: "decaf-live-\(interface)-\(UUID().uuidString).pcapng")
        // SpawnedProcess starts it with every signal's default handling, whatever the test
        // runner's threads block or ignore, so SIGTERM stops it.
        let arguments = [ExternalTool.tshark.path ?? "tshark", "-i", interface, "-f", "tcp port \(port)", "-w", file.path, "-q"]
        process = try SpawnedProcess(executable: "/usr/bin/env", arguments: arguments, standardError: .pipe)
        errors = process.pipes.error ?? -1
        var said = ""
        let deadline = ContinuousClock.now + timeout
        while !said.contains("Capture started"), ContinuousClock.now < deadline, let text = readStderr(until: deadline) {
            said += text
        }
        guard said.contains("Capture started") else {
            process.signal(SIGTERM)
            throw Failure.notStarted(said)
        }
    }

    deinit { close(errors) }

    /// The bytes written to the capture file so far.
    var fileSize: Int {
        (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    }

    /// Stops the capture and waits until tshark has closed the file: its end of the standard error
    /// pipe closes as it exits.
    func stop(timeout: Duration = .seconds(20)) throws {
        guard process.isRunning else { return }
        process.signal(SIGTERM)
        let deadline = ContinuousClock.now + timeout
        var ended = false
        while !ended, ContinuousClock.now < deadline {
            ended = readStderr(until: deadline) == nil
        }
        guard ended else {
            process.signal(SIGTERM)
            throw Failure.notStopped
        }
        process.wait()
    }

    /// What tshark writes to standard error next: nil at the end of the stream, empty if nothing
    /// came by `deadline`.
    private func readStderr(until deadline: ContinuousClock.Instant) -> String? {
        let descriptor = errors
        let (seconds, attoseconds) = max(.zero, deadline - ContinuousClock.now).components
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)) > 0 else { return "" }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 ? String(decoding: chunk[..<count], as: UTF8.self) : nil
    }
}
