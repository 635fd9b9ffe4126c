import ArgumentParser
import DecafCapture
import DecafConformance
import DecafDissect
import DecafJSON
import DecafMonitor
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `decaf monitor`: judge both ends of real traffic from a capture, by requirement.
struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Judge both ends of the Decaf traffic in a capture, by requirement.",
        discussion: """
            Every connection of a pcap or pcapng capture (tcpdump -w, decaf peer --pcap, decaf proxy \
            --pcap) is played through monitors of the rules a capture can show: the ACK of every DATA, \
            CONTROL, READ_RECEIPT and HEARTBEAT (EX-1, EX-2) and none for an ACK (EX-3), read receipts \
            only when agreed (EX-4), the close after a frame no receiver may take and after one's own \
            ERROR (EX-5), one frame per sequence (SEQ-1) and a resend's timestamp (EX-7), no message delivered twice, on one \
            connection or after a reconnect (REPLAY-1), the client's version request (HS-1) and the \
            server's answer (HS-2), and the rule each frame no receiver may take breaks, for its sender. A failure needs proof on the \
            wire: a missing ACK fails only once its receiver acknowledged a later frame. What the \
            capture may have lost (a gap, a stream joined mid-way, a capture that ends first) is not \
            judged, never failed. Several captures are judged one after another, each its own report, or \
            as one with --merge (the parts tcpdump -C or -G writes). From standard input \
            (tcpdump -U -w - | decaf monitor -), each connection's failures are printed as it ends. \
            Ctrl-C stops reading and reports what was judged; connections still open are not judged. \
            Exit status: 0 when no end broke a MUST, 1 when one did, 2 on a usage error or when a \
            capture cannot be read, 130 when interrupted.
            """
    )

    @Argument(help: ArgumentHelp("Captures (pcap, pcapng), one after another, or '-' for standard input.", valueName: "capture"),
              transform: PathArgument.parse)
    var captures: [String] = []

    @Option(help: ArgumentHelp("Judge TCP connections with this port at either end (default: connections whose first bytes are the magic).", valueName: "port"),
            transform: IntegerArgument.within(1...65_535))
    var port: UInt16?

    @Option(help: ArgumentHelp("The capture is decaf proxy --pcap's, of a proxy listening on this IP address and port: connections to it are judged for their client only, the proxy's upstream connections for their server only (what the proxy does to frames is the network's).",
                               valueName: "ip:port"),
            transform: Endpoint.server)
    var proxy: Endpoint?

    @Flag(help: "Print one JSON object per capture.")
    var json = false

    @Flag(help: "Judge the captures as one, in the order given: the parts tcpdump -C or -G writes, connections going on from one file to the next.")
    var merge = false

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file: a test case per end and requirement (one capture, or --merge).", valueName: "file"), transform: PathArgument.output)
    var junit: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report to this file, with the sessions in time (one capture, or --merge).", valueName: "file"), transform: PathArgument.output)
    var html: String?

    func validate() throws {
        if captures.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input ('-') can be read only once") }
        if (junit != nil || html != nil) && captures.count > 1 && !merge {
            throw ValidationError("--junit and --html report one capture; give one, or --merge to judge them as one")
        }
        if let proxy, proxyEndpoint == nil {
            throw ValidationError("--proxy: '\(proxy.host)' is not an IP address; give the address the capture shows the proxy at, such as 127.0.0.1:7448")
        }
    }

    /// The proxy's address as the capture shows it.
    private var proxyEndpoint: TCPEndpoint? {
        guard let proxy else { return nil }
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, proxy.host, &v4) == 1 {
            return TCPEndpoint(address: IPAddress(withUnsafeBytes(of: v4) { Array($0) }), port: UInt16(proxy.port))
        }
        let host = proxy.host.hasPrefix("[") ? String(proxy.host.dropFirst().dropLast()) : proxy.host
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return nil }
        return TCPEndpoint(address: IPAddress(withUnsafeBytes(of: v6) { Array($0) }), port: UInt16(proxy.port))
    }

    func run() async throws {
        let paths: [String?] = captures.isEmpty ? [nil] : captures
        let interrupted = InterruptFlag(watching: await SignalWaiter.install())
        // Each capture its own report, or all of them one.
        let parts: [[String?]] = merge ? [paths] : paths.map { [$0] }
        var worst: Int32 = 0
        for (index, part) in parts.enumerated() where !interrupted.isRaised {
            let name = part.map { $0 ?? "-" }.joined(separator: " + ")
            if parts.count > 1 && !json {
                FileHandleOutput.standardOutput.write((index == 0 ? "" : "\n") + "==> \(name) <==\n")
            }
            do {
                let started = ContinuousClock.now
                let report = try monitor(part, until: interrupted)
                try writeFiles(report, capture: name, duration: ContinuousClock.now - started)
                let text = json ? JSONLine.encode(report) : report.lines.joined(separator: "\n")
                if let code = FileHandleOutput.standardOutput.write(text + "\n") { throw InputError.cannotWrite(code) }
                if report.failed { worst = max(worst, 1) }
            } catch let error as InputError where parts.count > 1 {
                FileHandleOutput.standardError.write("Error: \(name == "-" ? "standard input" : name): \(error.message)\n")
                worst = 2
            }
        }
        if interrupted.isRaised {
            FileHandleOutput.standardError.write("Interrupted: reported what was read; connections still open were not judged\n")
            throw ExitCode(130)
        }
        if worst != 0 { throw ExitCode(worst) }
    }

    /// Writes the JUnit and HTML reports asked for; one that cannot be written is one line, exit 2.
    private func writeFiles(_ report: MonitorReport, capture: String, duration: Duration) throws {
        guard junit != nil || html != nil else { return }
        let run = MonitorRun.run(report, capture: capture, duration: duration)
        do {
            if let junit {
                try PathArgument.makeDirectories(for: junit)
                try JUnitReport.render(run).write(toFile: junit, atomically: true, encoding: .utf8)
            }
            if let html {
                try PathArgument.makeDirectories(for: html)
                try HTMLReport.render(run, appendix: SessionTimelineHTML.render(report)).write(toFile: html, atomically: true, encoding: .utf8)
            }
        } catch {
            throw InputError("cannot write a report: \(error.localizedDescription)")
        }
    }

    /// Judges one capture in `paths`' files, one after another, or standard input when a path is
    /// nil or "-" (printing each connection's failures as it ends), until `interrupted`.
    private func monitor(_ paths: [String?], until interrupted: InterruptFlag) throws -> MonitorReport {
        let fromPipe = paths.contains { $0 == nil || $0 == "-" }
        if fromPipe, isatty(0) == 1 {
            throw InputError("no input: give a CAPTURE, or pipe one into standard input (tcpdump -U -w -)")
        }
        var dissector = CaptureDissector(options: CaptureMonitor.decodeOptions, port: port)
        var printing = PrintingMonitor(proxyEndpoint.map(CaptureMonitor.init(proxy:)) ?? CaptureMonitor(), printing: !json && fromPipe)
        var fed = 0
        for path in paths where !interrupted.isRaised {
            var input = try ChunkedInput(path: path)
            let head = try input.head { interrupted.isRaised }
            if interrupted.isRaised, head.isEmpty { break }
            guard CaptureFormat.detect(head) != nil else {
                let name = path.map { $0 == "-" ? "standard input" : $0 } ?? "standard input"
                throw InputError("\(name) is not a pcap or pcapng capture; record one with tcpdump -w, decaf peer --pcap or decaf proxy --pcap")
            }
            if fed > 0 { dissector.startNextFile(to: &printing) }
            try input.feed(head, to: &dissector, into: &printing, ending: false) { interrupted.isRaised }
            fed += 1
        }
        guard fed > 0 else { return MonitorReport(printing.monitor) }
        dissector.finish(to: &printing)
        let monitor = printing.monitor
        if monitor.connectionCount == 0 {
            FileHandleOutput.standardError.write("No Decaf connection found in \(dissector.reader.packetCount) packet(s)"
                + (port == nil ? "; if the traffic is on a known port, give --port" : "") + "\n")
        }
        return MonitorReport(monitor)
    }
}
