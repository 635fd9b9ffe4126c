import ArgumentParser
import DecafDissect
import DecafJSON
import DecafNIO
import DecafProxy
import DecafSession
import Foundation
import NIOCore

/// `decaf proxy LISTEN UPSTREAM`: the weak-network proxy.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Put a weak network between a client and a server: latency, bandwidth, slicing, cuts, blackholes.",
        discussion: """
        Examples: decaf proxy 127.0.0.1:0 127.0.0.1:7447 --toxic latency:latency=200ms,jitter=100ms
                  decaf proxy :9000 10.1.2.3:7447 --toxic bandwidth=64@downstream --toxic reset_peer=30s
        Point the client at the proxy's address instead of the server's. Toxics have toxiproxy's names \
        and attributes and act on both directions unless @upstream (client to server) or @downstream \
        is given; several are applied in the order given. The first line printed is the address the \
        proxy listens on, printed once the upstream's name resolves and the proxy (and the control API) \
        listen; a connection whose upstream cannot be reached is closed, and why is said on standard \
        error as it happens (an upstream that does not accept within 10 s cannot be reached). SIGINT or SIGTERM stop \
        it and print what it carried. \
        It carries as many connections at once as its file descriptors allow, two each and 64 kept (ulimit -n); at \
        that many it says so once and stops accepting, so further clients wait in the listen queue until one closes. \
        Memory: a direction of a connection reads no more while 4 MiB of it wait to be written (a toxic holding them, \
        a reader that is slow; a read is at most 1 MiB), so a connection holds at most about 10 MiB, and no byte is dropped for it.
        With --control HOST:PORT, an HTTP/JSON API in toxiproxy's shape lists, adds, changes and removes \
        toxics, enables and disables the proxy, and switches profiles while connections live: \
        curl -d '{"type":"blackhole"}' http://HOST:PORT/proxies/decaf/toxics
        Profiles (--profile):
        """ + "\n" + ProxyProfile.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n")
    )

    @Argument(help: ArgumentHelp("Address to listen on, HOST:PORT; port 0 picks a free port.", valueName: "host:port"), transform: Endpoint.listening)
    var listen: Endpoint

    @Argument(help: ArgumentHelp("The server to forward to, HOST:PORT.", valueName: "host:port"), transform: Endpoint.server)
    var upstream: Endpoint

    @Option(help: ArgumentHelp("A toxic (repeatable): TYPE=VALUE or TYPE:ATTRIBUTE=VALUE,..., optionally @upstream or @downstream; a time says its unit (latency=50ms, not latency=50: toxiproxy's API counts milliseconds, Decaf's options seconds). Types: \(ToxicCatalog.typeList).",
                               valueName: "toxic"), transform: ToxicArgument.parse)
    var toxic: [ToxicArgument] = []

    @Option(help: ArgumentHelp("A named weak network, applied before the --toxic ones: \(ProxyProfile.allCases.map(\.rawValue).joined(separator: ", ")).",
                               valueName: "name"), transform: ProxyCommand.profile)
    var profile: ProxyProfile?

    @Option(name: .customLong("timeline"), help: ArgumentHelp("A JSON timeline of phases, each with its toxics and duration, played from the start (see the README).", valueName: "file"),
            transform: ProxyCommand.timeline)
    var timelineFile: ProxyTimeline?

    @Option(help: ArgumentHelp("Serve the control API (toxiproxy's /proxies, /proxies/NAME/toxics, /reset, plus /proxies/NAME/profile) on HOST:PORT; port 0 picks a free port.",
                               valueName: "host:port"), transform: Endpoint.listening)
    var control: Endpoint?

    @Option(help: ArgumentHelp("The proxy's name in the control API. (default: decaf)", valueName: "proxy-name"), transform: ProxyCommand.name)
    var name = "decaf"

    @Option(help: ArgumentHelp("Record both legs of every connection (client to proxy, proxy to upstream) to this pcap file.", valueName: "file"),
            transform: PathArgument.parse)
    var pcap: String?

    @Option(help: ArgumentHelp("Judge the traffic as it passes, as decaf monitor judges a capture, and write the report to this file when the proxy stops (JSON with --json); the verdict line is printed too.",
                               valueName: "file"),
            transform: PathArgument.parse)
    var monitor: String?

    @Flag(help: "Print phase changes and, when stopped, what the proxy carried as JSON lines instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Seed for the toxics' randomness, so a run can be repeated. (default: 1)", valueName: "n"), transform: IntegerArgument.within(0...UInt64.max))
    var seed: UInt64 = 1

    @Sendable static func profile(_ text: String) throws(ArgumentProblem) -> ProxyProfile {
        guard let profile = ProxyProfile(rawValue: text) else {
            throw ArgumentProblem("'\(text)' is not a profile; give \(ProxyProfile.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return profile
    }

    @Sendable static func name(_ text: String) throws(ArgumentProblem) -> String {
        guard (1...64).contains(text.count), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }) else {
            throw ArgumentProblem("'\(text.prefix(64))' is not a proxy name; give 1 to 64 letters, digits, '_', '-' or '.'")
        }
        return text
    }

    @Sendable static func timeline(_ path: String) throws(ArgumentProblem) -> ProxyTimeline {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: try PathArgument.parse(path))) } catch let problem as ArgumentProblem { throw problem } catch {
            throw ArgumentProblem("cannot read '\(path)': \(error.localizedDescription)")
        }
        do { return try ProxyTimeline(json: data) } catch { throw ArgumentProblem(error.description) }
    }

    func validate() throws {
        if timelineFile != nil && profile != nil { throw ValidationError("give --profile or --timeline, not both") }
    }

    func run() async throws {
        var extra = ProxyToxics()
        for choice in toxic {
            for stream in choice.streams { extra.add(choice.toxic, stream: stream) }
        }
        let timeline = (timelineFile ?? profile?.timeline ?? ProxyTimeline(toxics: ProxyToxics())).adding(extra)
        // What can be checked is checked before the first line, which scripts wait for: the
        // upstream's name resolves, the proxy and the control API can listen.
        do {
            _ = try SocketAddress.makeAddressResolvingHost(upstream.host, port: upstream.port)
        } catch {
            throw InputError("the upstream \(upstream): \(ConnectionFailure.reason(error))")
        }
        let signals = await SignalWaiter.install()
        let failures = ConnectionProblemLog(suffix: "; that client's connection was closed")
        // The report's file is made now, so a path that cannot be written is said before the first line.
        if let monitor, !FileManager.default.createFile(atPath: monitor, contents: nil) {
            throw InputError("--monitor: cannot write \(monitor); give a file in a directory that exists and can be written")
        }
        let live = monitor.map { _ in LiveMonitor() }
        let proxy: ProxyServer
        do {
            proxy = try await ProxyServer.start(host: listen.host, port: listen.port, upstream: HostAndPort(host: upstream.host, port: upstream.port),
                                                toxics: timeline.phases[0].toxics, seed: seed, pcapPath: pcap, monitor: live, onUpstreamFailure: failures.note,
                                                onLimit: { FileHandleOutput.standardError.write($0 + "\n") })
        } catch let error as ProxyServerError {
            if case .cannotRecord = error { throw InputError("\(error)") }
            throw InputError("cannot listen on \(listen): \(error)")
        }
        live?.listening(on: UInt16(clamping: proxy.localAddress.port ?? listen.port))
        let controlAPI = ProxyControl(proxies: [name: proxy], seed: seed)
        var controlServer: ControlServer?
        if let control {
            do {
                controlServer = try await ControlServer.start(host: control.host, port: control.port, control: controlAPI)
            } catch {
                try await proxy.shutdown()
                throw InputError("cannot serve the control API on \(control): \(error)")
            }
        }
        FileHandleOutput.standardOutput.write("listening on \(HostAndPort(host: listen.host, port: proxy.localAddress.port ?? listen.port))\n")
        if let control, let controlServer {
            FileHandleOutput.standardOutput.write("control API on http://\(HostAndPort(host: control.host, port: controlServer.localAddress.port ?? control.port)), this proxy named \(name)\n")
        }
        if timeline.phases.count > 1 {
            let json = json
            proxy.play(timeline) { phase in
                let now = Clock.now()
                FileHandleOutput.standardOutput.write(json ? JSONLine.encode(ProxyPhaseJSON(phase: phase.name, at: now, reset: phase.resetsConnections)) + "\n"
                    : String(format: "phase %@ at %.3f (UNIX time)%@\n", phase.name, now, phase.resetsConnections ? ", every connection reset" : ""))
            }
        }
        let signal = await signals.wait()
        try await controlServer?.shutdown()
        for other in await controlAPI.all.values where other !== proxy { try await other.shutdown() }
        try await proxy.shutdown()
        let counts = proxy.counts
        if let monitor, let report = live?.finish() {
            let text = json ? JSONLine.encode(report) : report.lines.joined(separator: "\n")
            do { try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: monitor)) } catch {
                FileHandleOutput.standardError.write("decaf proxy: cannot write the monitor report \(monitor): \(error.localizedDescription)\n")
            }
            if !json { print("monitor: " + report.verdictLine) }
        }
        if json {
            print(JSONLine.encode(ProxyStopJSON(signal: signal, counts: counts)))
            return
        }
        print("stopped by signal \(signal): \(counts.connections) connections, \(counts.refused) refused, \(counts.upstreamFailures) could not reach the upstream, \(counts.cut) cut; "
            + "upstream \(counts.upstream.bytesIn) bytes in, \(counts.upstream.bytesOut) out; downstream \(counts.downstream.bytesIn) in, \(counts.downstream.bytesOut) out")
        for (name, frames) in [("upstream", counts.upstream.frames), ("downstream", counts.downstream.frames)] where frames.seen > 0 {
            print("\(name) frames: \(frames.seen) seen, \(frames.dropped) dropped, \(frames.duplicated) duplicated, \(frames.corrupted) corrupted, \(frames.cut) cut")
        }
    }
}
