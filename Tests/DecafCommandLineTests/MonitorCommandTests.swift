import DecafTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `decaf monitor` on captures the reference peer records of `decaf send`: nothing fails between
/// the two reference ends, and each planted fault a capture can show is named for the server,
/// under the requirement the fault breaks.
@Suite("decaf monitor", .serialized)
struct MonitorCommandTests {
    /// A capture the peer with `peer` records while `decaf send` with `send` talks to it.
    static func capture(peer: [String], send: [String]) async throws -> URL {
        let pcap = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString).pcap")
        let (server, address) = try await FuzzServerCommandTests.peer(["--pcap", pcap.path] + peer)
        // Against some faults no handshake completes and send gives up (exit status 2): the
        // capture holds what happened all the same.
        _ = try await DecafProcess.run(["send", address, "--count", "5", "--deadline", "10s", "--connect-deadline", "2s"] + send, limit: .seconds(60))
        _ = try await server.stop()
        return pcap
    }

    /// `decaf send` (2 connections of `count` messages at `rate`, the reliable policy) through a
    /// proxy with `profile` in front of the reference peer, the proxy recording to `pcap`; returns
    /// the proxy's address.
    static func captureThroughProxy(profile: String, count: Int, rate: Int, to pcap: URL) async throws -> String {
        let (server, upstream) = try await FuzzServerCommandTests.peer(["--read-receipt-delay", "0ms"])
        let proxy = try RunningChild(decaf: ["proxy", "127.0.0.1:0", upstream, "--profile", profile, "--seed", "7", "--pcap", pcap.path])
        let address = String(try await proxy.firstLine().dropFirst("listening on ".count))
        _ = try await DecafProcess.run(["send", address, "--connections", "2", "--count", "\(count)", "--rate", "\(rate)", "--policy", "reliable",
                                        "--deadline", "30s"], limit: .seconds(60))
        _ = try await proxy.stop()
        _ = try await server.stop()
        return address
    }

    @Test("the reference client and peer break nothing a capture shows; the report counts what each end met")
    func referenceEnds() async throws {
        let pcap = try await Self.capture(peer: ["--read-receipt-delay", "0ms"], send: ["--heartbeat", "100ms"])
        defer { try? FileManager.default.removeItem(at: pcap) }
        let run = try await DecafProcess.run(["monitor", pcap.path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("PASS: no end broke a requirement the capture shows"), "\(run.output)")
        #expect(run.output.contains("EX-1             server       6"), "\(run.output)")
        #expect(run.output.contains("HS-2             server       1"), "\(run.output)")
        let json = try await DecafProcess.run(["monitor", "--json", pcap.path])
        let report = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(report?["failed"] as? Bool == false)
        #expect(report?["connections"] as? Int == 1)
    }

    @Test("a capture of the reference ends cut short anywhere, or with packets missing, fails nothing: what it lost is not judged")
    func damagedCaptures() async throws {
        let pcap = try await Self.capture(peer: ["--read-receipt-delay", "0ms"], send: ["--heartbeat", "100ms"])
        defer { try? FileManager.default.removeItem(at: pcap) }
        let whole = try [UInt8](Data(contentsOf: pcap))
        // A little-endian pcap: a 24-byte header, then records of a 16-byte header and incl_len bytes.
        var offset = 24, records: [Range<Int>] = []
        while offset + 16 <= whole.count {
            let length = Int(whole[offset + 8]) | Int(whole[offset + 9]) << 8 | Int(whole[offset + 10]) << 16 | Int(whole[offset + 11]) << 24
            records.append(offset..<(offset + 16 + length))
            offset += 16 + length
        }
        #expect(records.count > 20, "a conversation of some length")
        var damaged: [(String, [UInt8])] = []
        // Cut short after every fifth record, and inside one.
        for cut in stride(from: 3, to: records.count, by: 5) { damaged.append(("cut after \(cut) packets", Array(whole[..<records[cut].lowerBound]))) }
        damaged.append(("cut inside a packet", Array(whole[..<(records[records.count / 2].lowerBound + 30)])))
        // Every seventh packet missing, starting at each of the first seven.
        for first in 0..<7 {
            let kept = records.indices.filter { ($0 - first) % 7 != 0 || $0 < first }
            damaged.append(("every 7th packet from \(first) missing", Array(whole[..<24]) + kept.flatMap { whole[records[$0]] }))
        }
        let file = pcap.deletingPathExtension().appendingPathExtension("damaged.pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        for (damage, bytes) in damaged {
            try Data(bytes).write(to: file)
            let run = try await DecafProcess.run(["monitor", "--json", file.path])
            let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
            #expect((report?["defects"] as? [Any])?.isEmpty == true, "\(damage): \(run.output)\(run.error)")
        }
    }

    @Test("through decaf proxy's subway profile (30% of frames dropped), the reference ends break nothing once the proxy's legs are known (--proxy)")
    func throughProxy() async throws {
        let pcap = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString).pcap")
        defer { try? FileManager.default.removeItem(at: pcap) }
        let address = try await Self.captureThroughProxy(profile: "subway", count: 10, rate: 10, to: pcap)
        let run = try await DecafProcess.run(["monitor", "--proxy", address, pcap.path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("PASS: no end broke a requirement the capture shows"), "\(run.output)")
        #expect(run.output.contains("EX-1             server"), "the upstream legs are judged: \(run.output)")
        #expect(run.output.contains("EX-1             client"), "the client legs are judged: \(run.output)")
        let named = try await DecafProcess.run(["monitor", "--proxy", "localhost:\(address.split(separator: ":").last ?? "")", pcap.path])
        #expect(named.status == 2 && named.error.contains("--proxy: 'localhost' is not an IP address"), "\(named.error)")
    }

    @Test("decaf proxy --monitor judges what it carries: a peer that acknowledges ACKs is named, the proxy's own drops are not, the report written at the stop")
    func liveThroughProxy() async throws {
        let report = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: report) }
        let (server, upstream) = try await FuzzServerCommandTests.peer(["--fault", "ack-acks"])
        let proxy = try RunningChild(decaf: ["proxy", "127.0.0.1:0", upstream, "--profile", "subway", "--seed", "7", "--monitor", report.path])
        let address = String(try await proxy.firstLine().dropFirst("listening on ".count))
        _ = try await DecafProcess.run(["send", address, "--count", "10", "--rate", "10", "--policy", "reliable", "--deadline", "20s"], limit: .seconds(60))
        let stopped = try await proxy.stop()
        _ = try await server.stop()
        let output = String(decoding: stopped.output, as: UTF8.self)
        #expect(output.contains("monitor: FAIL: the server broke EX-3"), "\(output)")
        let text = try String(contentsOf: report, encoding: .utf8)
        #expect(text.contains("FAIL server EX-3: acknowledged an ACK"), "\(text)")
        #expect(!text.contains("FAIL client") && !text.contains("FAIL server EX-1"), "the proxy's drops are not an end's: \(text)")
        #expect(text.contains("Field metrics: 1 connection(s), 1 session(s)"), "\(text)")
        let unwritable = try await DecafProcess.run(["proxy", "127.0.0.1:0", upstream, "--monitor", "/dev/null/report.txt"])
        #expect(unwritable.status == 2 && unwritable.error.contains("--monitor: cannot write /dev/null/report.txt"), "\(unwritable.error)")
    }

    /// Planted faults a capture of `decaf send` shows, what send is asked to do so it does, and
    /// the end and requirement the monitor must name.
    static let observable: [(fault: String, send: [String], named: String)] = [
        ("ack-wrong-sequence", [], "FAIL server EX-1"),
        ("double-control-ack", [], "FAIL server EX-1"),
        ("ack-acks", [], "FAIL server EX-3"),
        ("read-receipts-unagreed", ["--features", "BASIC"], "FAIL server EX-4"),
        ("fixed-features", ["--features", "BASIC"], "FAIL server HS-2"),
        ("crc-little-endian", [], "FAIL server CRC-1"),
    ]

    @Test("each planted fault a capture shows is named for the server, under its requirement; exit status 1", arguments: observable.indices)
    func plantedFault(index: Int) async throws {
        let (fault, send, named) = Self.observable[index]
        let pcap = try await Self.capture(peer: ["--fault", fault], send: send)
        defer { try? FileManager.default.removeItem(at: pcap) }
        let run = try await DecafProcess.run(["monitor", pcap.path])
        #expect(run.status == 1, "\(fault): \(run.output)\(run.error)")
        #expect(run.output.contains(named), "\(fault): \(run.output)")
        #expect(!run.output.contains("FAIL client"), "\(fault): the reference client is not to blame: \(run.output)")
    }

    /// The handover profile cuts every connection once; the client comes back on a new one.
    @Test("--html draws each session's connections in time, a bar per connection and a dashed line per reconnect, with the field metrics")
    func timeline() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pcap = directory.appending(path: "handover.pcap"), html = directory.appending(path: "monitor.html")
        let address = try await Self.captureThroughProxy(profile: "handover", count: 40, rate: 5, to: pcap)
        let run = try await DecafProcess.run(["monitor", "--proxy", address, "--json", "--html", html.path, pcap.path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let metrics = try #require((try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])?["metrics"] as? [String: Any])
        let connections = try #require(metrics["connections"] as? Int), reconnects = try #require(metrics["reconnects"] as? Int)
        #expect(reconnects >= 1, "the handover cut a connection: \(metrics)")
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains("<h2 id=\"timeline\">Sessions in time</h2>") && page.contains("2 session(s) from"), "\(page)")
        #expect(page.components(separatedBy: "<rect class=").count - 1 == connections, "a bar per client leg")
        #expect(page.components(separatedBy: "<line class=\"reconnect\"").count - 1 == reconnects, "a dashed line per reconnect")
        #expect(page.contains("<h2 id=\"metrics\">Field metrics</h2>") && page.contains("reconnects \(reconnects), loss to next delivery"))
    }

    /// The client suite's scripted servers record what they carry, so a client's faults can be
    /// named from a capture as a server's are (tools/monitor/faults.py --role client).
    @Test("decaf conform client --pcap records every case's connections: the monitor names the planted fault for the client, and nothing for the reference client")
    func clientSuiteCapture() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for fault in ["checksum-in-host-order", ""] {
            let pcap = directory.appending(path: "client\(fault).pcap")
            let testee = [FixturePaths.decafExecutable.path, "testee", "client"] + (fault.isEmpty ? [] : ["--fault", fault])
            _ = try await DecafProcess.run(["conform", "client", "--case", "client.exchange.data-acknowledged", "--case", "client.exchange.control-acknowledged",
                                            "--pcap", pcap.path, "--"] + testee, limit: .seconds(120))
            let run = try await DecafProcess.run(["monitor", pcap.path])
            if fault.isEmpty {
                #expect(run.status == 0 && !run.output.contains("FAIL client"), "\(run.output)")
                #expect(run.output.contains("EX-1             client"), "the client's ACKs were judged: \(run.output)")
            } else {
                #expect(run.status == 1 && run.output.contains("FAIL client CRC-1"), "\(run.output)")
            }
        }
        let unwritable = try await DecafProcess.run(["conform", "client", "--pcap", "/dev/null/suite.pcap", "--", "true"])
        #expect(unwritable.status == 2 && unwritable.error.contains("--pcap: cannot write the pcap file /dev/null/suite.pcap"), "\(unwritable.error)")
    }

    /// tcpdump -C and -G write one capture in several files, each with a file header.
    @Test("--merge judges a capture cut into parts as one: the same report as the whole; each part alone loses what spans the cut")
    func merge() async throws {
        let whole = try [UInt8](Data(contentsOf: FixturePaths.fixtures.appending(path: "captures/session-ethernet.pcap")))
        // A little-endian pcap: a 24-byte header, then records of a 16-byte header and incl_len bytes.
        var offset = 24, records: [Range<Int>] = []
        while offset < whole.count {
            let length = Int(whole[offset + 8]) | Int(whole[offset + 9]) << 8 | Int(whole[offset + 10]) << 16 | Int(whole[offset + 11]) << 24
            records.append(offset..<(offset + 16 + length))
            offset += 16 + length
        }
        let cut = records[records.count / 2].lowerBound
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appending(path: "part0.pcap"), second = directory.appending(path: "part1.pcap")
        try Data(whole[..<cut]).write(to: first)
        try Data(whole[..<24] + whole[cut...]).write(to: second)
        let expected = try await DecafProcess.run(["monitor", FixturePaths.fixtures.appending(path: "captures/session-ethernet.pcap").path])
        let merged = try await DecafProcess.run(["monitor", "--merge", first.path, second.path])
        #expect(merged.status == 0 && merged.output == expected.output, "\(merged.output)\(merged.error)")
        let apart = try await DecafProcess.run(["monitor", first.path, second.path])
        #expect(apart.output.contains("==> \(second.path) <==") && apart.output != expected.output)
        let notACapture = try await DecafProcess.run(["monitor", "--merge", first.path, directory.path])
        #expect(notACapture.status == 2 && notACapture.error.contains("is a directory"), "\(notACapture.error)")
    }

    /// A server that sends its ERROR and keeps the connection open shows only in the FINs: the
    /// suite waits for the close, then closes itself.
    @Test("a server that keeps the connection open after its ERROR is named under EX-5 from the suite's close; the reference peer, which closes, is not",
          arguments: [("keep-open-on-bad-magic", "frame.magic.after-good-frame"), ("keep-open-on-error", "wire.checksum.212"), ("", "frame.magic.after-good-frame")])
    func keptOpen(fault: String, testCase: String) async throws {
        let pcap = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString).pcap")
        defer { try? FileManager.default.removeItem(at: pcap) }
        let (server, address) = try await FuzzServerCommandTests.peer(["--pcap", pcap.path] + (fault.isEmpty ? [] : ["--fault", fault]))
        _ = try await DecafProcess.run(["conform", "server", address, "--case", testCase], limit: .seconds(120))
        _ = try await server.stop()
        let run = try await DecafProcess.run(["monitor", pcap.path])
        if fault.isEmpty {
            #expect(!run.output.contains("FAIL server"), "\(run.output)")
            #expect(run.output.contains("EX-5             server       1"), "the close was seen: \(run.output)")
        } else {
            #expect(run.status == 1, "\(run.output)\(run.error)")
            #expect(run.output.contains("FAIL server EX-5: had not closed the connection"), "\(fault): \(run.output)")
        }
    }

    /// `tcpdump -U -w - | decaf monitor -`: the pipe stays open while the capture is made.
    @Test("from a pipe, a connection's failures are printed as it ends, the pipe still open; Ctrl-C reports what was read, exit status 130")
    func live() async throws {
        let pcap = try await Self.capture(peer: ["--fault", "crc-little-endian"], send: [])
        defer { try? FileManager.default.removeItem(at: pcap) }
        let fifo = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString).fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let monitor = try RunningChild(URL(fileURLWithPath: "/bin/sh"), ["-c", #"exec "$0" monitor - < "$1""#, FixturePaths.decafExecutable.path, fifo])
        // Opening the pipe's end waits for the monitor to open the other.
        let writer = try await ChildProcess.offCooperativeThreads { FileHandle(forWritingAtPath: fifo) }
        let handle = try #require(writer)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(contentsOf: pcap))
        let line = try await monitor.outputLine(containing: "FAIL")
        #expect(line.hasPrefix("connection #1 ") && line.contains("FAIL server CRC-1: sent a frame no receiver may take"), "\(line)")
        let run = try await monitor.stop(signal: SIGINT)
        let output = String(decoding: run.output, as: UTF8.self)
        #expect(run.status == 130 && !run.signalled, "status \(run.status): \(output)")
        #expect(output.contains("requirement      end     passed  failed  not judged") && output.contains("FAIL: the server broke CRC-1"), "\(output)")
        #expect(String(decoding: run.error, as: UTF8.self).contains("Interrupted: reported what was read"))
    }

    @Test("--junit and --html go into directories made for them when missing, as --findings does")
    func reportDirectories() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appending(path: "a/b/monitor.xml"), html = directory.appending(path: "c/monitor.html")
        let run = try await DecafProcess.run(["monitor", FixturePaths.fixtures.appending(path: "captures/damaged.pcap").path, "--junit", junit.path, "--html", html.path])
        #expect(run.status == 1, "\(run.error)")
        #expect(FileManager.default.fileExists(atPath: junit.path) && FileManager.default.fileExists(atPath: html.path))
    }

    @Test("--junit and --html: a test case per end and requirement, failed, passed or skipped when not judged; the JUnit passes Specs/junit.xsd",
          .enabled(if: ExternalTool.xmllint.isInstalled, Comment(rawValue: ExternalTool.xmllint.skipReason)))
    func reports() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appending(path: "monitor.xml"), html = directory.appending(path: "monitor.html")
        let run = try await DecafProcess.run(["monitor", FixturePaths.fixtures.appending(path: "captures/damaged.pcap").path, "--junit", junit.path, "--html", html.path])
        #expect(run.status == 1, "\(run.error)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<testcase name=\"monitor.client.crc-1\""))
        #expect(xml.contains("<failure message=\"fail: sent a frame no receiver may take"))
        #expect(xml.contains("<skipped message=\"unsupported: not judged: a frame had no ACK"), "\(xml)")
        let lint = URL(filePath: try #require(ExternalTool.xmllint.path))
        let valid = try await ChildProcess.run(lint, ["--noout", "--schema", FixturePaths.root.appending(path: "Specs/junit.xsd").path, junit.path])
        #expect(valid.status == 0, "\(String(decoding: valid.error, as: UTF8.self))")
        #expect(try String(contentsOf: html, encoding: .utf8).contains("decaf monitor capture"))
        let two = try await DecafProcess.run(["monitor", "a.pcap", "b.pcap", "--junit", junit.path])
        #expect(two.status == 2 && two.error.contains("--junit and --html report one capture"), "\(two.error)")
    }

    @Test("what is not a capture, or no capture at all, is one line and exit status 2")
    func notACapture() async throws {
        let text = FileManager.default.temporaryDirectory.appending(path: "decaf-monitor-\(UUID().uuidString).txt")
        try Data("hello\n".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        let run = try await DecafProcess.run(["monitor", text.path])
        #expect(run.status == 2)
        #expect(run.error.contains("is not a pcap or pcapng capture"), "\(run.error)")
        let missing = try await DecafProcess.run(["monitor", "/nonexistent/capture.pcap"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("cannot read /nonexistent/capture.pcap"), "\(missing.error)")
    }
}
