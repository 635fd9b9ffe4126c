import DecafConformance
import DecafWire
import DecafTestSupport
import Foundation
import Testing

/// `decaf conform` as a user runs it: exit statuses, repro bytes and the exported vectors.
@Suite("decaf conform on the command line")
struct ConformCommandLineTests {
    @Test("a --case pattern that matches nothing exits 3 and says so")
    func mistypedFilterExits3() async throws {
        let run = try await DecafProcess.run(["conform", "server", "127.0.0.1:9", "--case", "handshake.nosuch*"])
        #expect(run.status == 3)
        #expect(run.error.contains("--case handshake.nosuch* matches no case"))
        let decoder = try await DecafProcess.run(["conform", "decoder", "--case", "nothing", "--", "python3", "-c", "pass"])
        #expect(decoder.status == 3)
    }

    @Test("a server that cannot be reached is one line saying why, exit status 2, and no case run")
    func unreachableServer() async throws {
        let run = try await DecafProcess.run(["conform", "server", "127.0.0.1:9", "--timeout", "500ms"])
        #expect(run.status == 2)
        #expect(run.error == "Error: cannot connect to 127.0.0.1:9: connection refused; is the server running and listening there? No case ran.\n")
        #expect(run.output.isEmpty)
    }

    @Test("a testee that cannot run is one line quoting why, exit status 2, and no case judged",
          .enabled(if: ExternalTool.python3.isInstalled, Comment(rawValue: ExternalTool.python3.skipReason)))
    func unusableTestee() async throws {
        let run = try await DecafProcess.run(["conform", "decoder", "--", "python3", "/nonexistent/testee.py"])
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("Error: the testee `python3 /nonexistent/testee.py` exited with status 2 before answering, in each of its first 3 cases"))
        #expect(run.error.contains("No such file or directory"))
        #expect(run.error.split(separator: "\n").count == 1)
        #expect(run.output.isEmpty)
    }

    @Test("repro prints the exact bytes of a case's steps")
    func repro() async throws {
        let run = try await DecafProcess.run(["conform", "repro", "exchange.heartbeat"])
        #expect(run.status == 0)
        let item = try #require(ConformanceCatalog().case("exchange.heartbeat"))
        let hex = item.transmissions.map { $0.bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex.allSatisfy { run.output.contains($0) })
        #expect(try await DecafProcess.run(["conform", "repro", "no.such.case"]).status == 2)
    }

    @Test("repro shows a client case's input and the server's bytes; list shows each suite's cases")
    func clientRepro() async throws {
        let item = try #require(ClientCatalog.cases.first { $0.id == "client.frame.bad-magic" })
        let run = try await DecafProcess.run(["conform", "repro", item.id])
        #expect(run.status == 0)
        #expect(run.output.contains(Hex.string(item.sentBytes)) && run.output.contains("DECAF_CONFORM_ACK_TIMEOUT_MS=400"))
        let binary = try await DecafProcess.run(["conform", "repro", item.id, "--binary"])
        #expect(binary.outputBytes == item.sentBytes)
        let catalogs = [("server", ConformanceCatalog().cases.map(\.id)), ("client", ClientCatalog.cases.map(\.id)), ("codec", CodecCase.all.map(\.id))]
        for (suite, ids) in catalogs {
            let list = try await DecafProcess.run(["conform", "list", "--suite", suite])
            #expect(list.output.contains("\(ids.count) of \(ids.count) \(suite) cases"), "\(list.output.suffix(200))")
            // Every ID whole, so it can be pasted into repro.
            let listed = list.output.split(separator: "\n").dropLast().map { String($0.prefix { $0 != " " }) }
            #expect(listed == ids, "\(Set(listed).symmetricDifference(ids).sorted().prefix(5))")
        }
    }

    @Test("vectors writes the codec cases as the committed vector files")
    func vectors() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-vectors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await DecafProcess.run(["conform", "vectors", directory.path])
        #expect(run.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: FixturePaths.vectors.path).sorted()
        #expect(names.count == 5)
        for name in names {
            #expect(FileManager.default.contents(atPath: directory.appending(path: name).path) == FileManager.default.contents(atPath: FixturePaths.vectors.appending(path: name).path))
        }
    }
}
