import DecafConformance
import DecafNIO
import Foundation
import NIOExtras
#if canImport(Glibc)
import Glibc
#endif

/// Runs client cases, as BoringSSL's BoGo runner does: for each case a scripted server listens on
/// a loopback port of its own, and the testee is started with that address in its environment.
/// Cases run several at once, so the waits of timing cases do not add up.
public struct ClientConformanceRunner: Sendable {
    public let settings: ClientRunSettings
    /// Where every connection of every case is recorded, when it is (`--pcap`): closed when `run` ends.
    let pcap: NIOWritePCAPHandler.SynchronizedFileSink?

    public init(settings: ClientRunSettings) {
        self.settings = settings
        pcap = nil
        // A write to a testee that died must fail with EPIPE, not kill the suite.
        signal(SIGPIPE, SIG_IGN)
    }

    /// A runner of `settings` that records every connection to the pcap file `pcapPath`, when given.
    public init(settings: ClientRunSettings, pcapPath: String?) throws(PcapFile.Problem) {
        self.settings = settings
        pcap = try pcapPath.map { path throws(PcapFile.Problem) in
            try PcapFile.open(path: path) { error in FileHandle.standardError.write(Data("Error: writing the pcap file \(path) failed: \(error)\n".utf8)) }
        }
        // A write to a testee that died must fail with EPIPE, not kill the suite.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Runs one case, made outside the catalog, once, with a listener and a testee of its own:
    /// how the fuzzer asks a client about an input.
    public func attempt(_ testCase: ClientCase, execution: Int) async -> CaseAttempt {
        await ClientSuiteDriver(settings: settings, pcap: pcap).attempt(testCase, execution: execution)
    }

    /// Runs one case made outside the catalog in `session`: on the testee the session keeps, past
    /// the handshake, when it can (AFLNet-style fuzzing); else on a testee of its own, which the
    /// session keeps for the next case.
    public func attempt(_ testCase: ClientCase, execution: Int, in session: ClientTesteeSession) async -> CaseAttempt {
        await ClientSuiteDriver(settings: settings, pcap: pcap).attempt(testCase, execution: execution, in: session)
    }

    /// Runs `cases` and reports each result to `progress` as it completes. A case that failed
    /// while the suite's own event loop was held up is run again, alone, once the others are done:
    /// its times were measured on a clock the suite could not keep. Throws, after the cases
    /// already started, when the testee cannot be started at all or does nothing a case can
    /// judge: every verdict would say so. Stops early, keeping the verdicts reached, when the task
    /// is cancelled.
    public func run(_ cases: [ClientCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async throws(TesteeUnusable) -> ConformanceRun {
        let started = ContinuousClock.now
        let outcome = await SuiteRunner(driver: ClientSuiteDriver(settings: settings, pcap: pcap)).run(cases, progress: progress)
        try? await pcap?.close()
        if let unusable = outcome.unusable {
            throw TesteeUnusable(command: settings.command, reason: unusable, protocolFile: "Specs/conform-client.md")
        }
        return ConformanceRun(kind: .client, target: settings.command.joined(separator: " "), identity: nil, catalogChecksum: ClientCatalog.checksum,
                              results: outcome.results, duration: ContinuousClock.now - started, planned: cases.count, stop: outcome.stop)
    }
}

/// What one run of a client case gave the judge: the observation and the transcript, or the
/// suite's own problem (no port to listen on) that stopped the case.
struct ClientCaseOutcome: Sendable {
    var observation: ClientObservation
    var transcript: [TranscriptEntry]
    var problem: String?
    /// The longest the case's event loop ran late, or its script fell behind its pauses.
    var held: Duration = .zero
}
