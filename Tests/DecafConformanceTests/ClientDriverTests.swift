import DecafConformance
import DecafSession
import DecafTestSupport
import Foundation
import Testing

/// The client driver against the two reference clients, and against the Swift one with each of
/// its faults. Runs go one at a time: each already starts eight testees at once.
@Suite("client driver", .serialized, .timeLimit(.minutes(4)))
struct ClientDriverTests {
    static let swiftTestee = [FixturePaths.decafExecutable.path, "testee", "client"]
    static let pythonTestee = ["python3", FixturePaths.root.appending(path: "tools/reference/client.py").path]

    static func run(_ command: [String], _ cases: [ClientCase] = ClientCatalog.cases, jobs: Int = 8, repeats: Int = 1) async throws -> ConformanceRun {
        var settings = ClientRunSettings(command: command) { UInt32(Date().timeIntervalSince1970) }
        settings.jobs = jobs
        settings.repeats = repeats
        return try await ClientConformanceRunner(settings: settings).run(cases)
    }

    /// Required cases that failed, and harness errors, with their reasons.
    static func failures(_ run: ConformanceRun) -> [String] {
        (run.unexpectedFailures + run.results.filter { $0.verdict.kind == .harnessError })
            .map { "\($0.testCase.id): \($0.verdict.kind.rawValue) \($0.verdict.reason) (\($0.verdict.actual.prefix(200)))" }
    }

    @Test("decaf testee client passes every required case, and the run exits 0")
    func swiftClient() async throws {
        let run = try await Self.run(Self.swiftTestee)
        #expect(Self.failures(run) == [])
        #expect(run.results.count == ClientCatalog.cases.count && ClientCatalog.cases.count >= 60)
        #expect(run.exitStatus == 0)
    }

    @Test("a client that offers and says 1.1 passes every required case; the minor-higher case sends it 1.2 (VER-2)")
    func clientOfMinorOne() async throws {
        let required = ClientCatalog.cases.filter { $0.level == .required }
        let run = try await Self.run(Self.swiftTestee + ["--protocol-version", "1.1"], required)
        #expect(Self.failures(run) == [])
        let higher = try #require(run.results.first { $0.testCase.id == "client.frame.version-minor-higher" })
        #expect(higher.verdict.kind == .pass)
        let sent = higher.transcript.filter { $0.direction == .sent && $0.label?.contains("minor above") == true }
        #expect(!sent.isEmpty && sent.allSatisfy { Array($0.bytes[4...5]) == [1, 2] }, "\(sent.map { $0.bytes.prefix(8) })")
    }

    @Test("tools/reference/client.py passes every required case", .enabled(if: ExternalTool.python3.isInstalled, Comment(rawValue: ExternalTool.python3.skipReason)))
    func pythonClient() async throws {
        let run = try await Self.run(Self.pythonTestee)
        #expect(Self.failures(run) == [])
        #expect(run.exitStatus == 0)
    }

    @Test("a testee that cannot be started stops the run with one reason")
    func missingTestee() async {
        let error = await #expect(throws: TesteeUnusable.self) {
            try await Self.run(["/nonexistent/client"], Array(ClientCatalog.cases.prefix(3)))
        }
        #expect(error?.description.contains("cannot be started") == true, "\(error?.description ?? "")")
    }

    @Test("a testee that prints logs on standard output, exits 89 or crashes gets the verdict the protocol gives it")
    func misbehavingTestees() async throws {
        let testCase = try #require(ClientCatalog.cases.first { $0.id == "client.exchange.data-acknowledged" })
        let garbage = try await Self.run(["sh", "-c", "echo connecting...; sleep 5"], [testCase])
        #expect(garbage.results.first?.verdict.kind == .harnessError)
        #expect(garbage.results.first?.verdict.reason.contains("not an event") == true, "\(garbage.results.first?.verdict.reason ?? "")")
        let unsupported = try await Self.run(["sh", "-c", "exit 89"], [testCase])
        #expect(unsupported.results.first?.verdict.kind == .unsupported)
        let hostile = try #require(ClientCatalog.cases.first { $0.id == "client.frame.bad-magic" })
        let crash = try await Self.run(["sh", "-c", "kill -SEGV $$"], [hostile])
        #expect(crash.results.first?.verdict.kind == .fail)
        #expect(crash.results.first?.verdict.requirements.contains(.ex5) == true)
    }
}

/// The Swift client with each of its faults, the faults side by side: their cases mostly wait.
@Suite("client faults", .timeLimit(.minutes(3)))
struct ClientFaultTests {
    /// A fault that breaks a requirement fails a required case naming it; the two backoff faults
    /// break none (the brief asks for no backoff) and fail a recommended case.
    @Test("every client fault fails a case that names a requirement the fault breaks", arguments: ClientFault.allCases)
    func fault(_ fault: ClientFault) async throws {
        let concerned = fault.breaks.isEmpty ? [.reconnect1] : Set(fault.breaks)
        let level: ConformanceLevel = fault.breaks.isEmpty ? .recommended : .required
        var cases = ClientCatalog.cases.filter { $0.level == level && !concerned.isDisjoint(with: $0.requirements) }
        if fault.breaks.isEmpty { cases = cases.filter { $0.id.hasPrefix("client.reconnect.") } }
        if cases.isEmpty { cases = Array(ClientCatalog.cases.filter { $0.level == .required }.prefix(3)) }
        // Jitter and backoff are judged on the spread of a few waits, which a loaded machine can
        // blur: those faults get three runs, and a run that catches them is enough.
        let run = try await ClientDriverTests.run(ClientDriverTests.swiftTestee + ["--fault", fault.rawValue], cases, jobs: 4,
                                                  repeats: fault.breaks.isEmpty ? 3 : 1)
        let failing = run.results.filter(\.verdict.kind.isFailure)
        let naming = failing.filter { $0.testCase.level == level && !concerned.isDisjoint(with: $0.verdict.requirements + $0.testCase.requirements) }
        #expect(!naming.isEmpty, "no \(level.rawValue) case naming \(concerned.map(\.rawValue).sorted()) failed; failures: \(failing.map(\.testCase.id))")
        #expect(run.exitStatus == (fault.breaks.isEmpty ? 0 : 1))
    }
}

@Suite("client testee lines")
struct ClientTesteeLineTests {
    @Test("every event survives its line", arguments: [
        ClientTesteeEvent.handshake(version: "1.0", features: ["BASIC", "READ_RECEIPT"]),
        .acknowledged(id: "m1"), .failed(id: "m\"2", reason: "no ACK after 4 sends"), .receipt(id: "m3"),
        .delivered(payload: [0x10, 0x01, 0, 0, 0, 2, 0x68, 0x69]), .delivered(payload: []),
        .error(name: "CHECKSUM_MISMATCH"), .serverError(code: 4, reason: "bad\ncrc"), .unsupported(reason: "no heartbeats"),
    ])
    func roundTrip(_ event: ClientTesteeEvent) {
        #expect(ClientTesteeEvent(line: event.line, defaults: .suggested) == event)
    }

    @Test("ready carries the settings; what is missing or absurd falls back to the suggestion")
    func ready() {
        var settings = ClientSettings.suggested
        settings.ackTimeout = .milliseconds(250)
        settings.heartbeat = .milliseconds(300)
        #expect(ClientTesteeEvent(line: ClientTesteeEvent.ready(settings).line, defaults: .suggested) == .ready(settings))
        let absurd = ClientTesteeEvent(line: #"{"event":"ready","ackTimeoutMs":-5,"retries":1e9}"#, defaults: .suggested)
        guard case let .ready(read) = absurd else {
            Issue.record("not a ready event: \(String(describing: absurd))")
            return
        }
        #expect(read.ackTimeout == ClientSettings.suggested.ackTimeout && read.retries == ClientSettings.suggested.retries)
    }

    @Test("what is not a JSON object with an event is not an event", arguments: ["connecting...", "[1,2]", #"{"id":"m1"}"#, ""])
    func notEvents(_ line: String) {
        #expect(ClientTesteeEvent(line: line, defaults: .suggested) == nil)
    }
}
