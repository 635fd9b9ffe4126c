import DecafConformance
import DecafTestSupport
import Foundation
import Testing

/// `decaf conform` as a user runs it: exit statuses, repro bytes and the exported vectors.
@Suite("decaf conform on the command line")
struct ConformCommandLineTests {
    @Test("a --case pattern that matches nothing exits 3 and says so")
    func mistypedFilterExits3() throws {
        let run = try DecafProcess.run(["conform", "server", "127.0.0.1:9", "--case", "handshake.nosuch*"])
        #expect(run.status == 3)
        #expect(run.error.contains("--case handshake.nosuch* matches no case"))
        let decoder = try DecafProcess.run(["conform", "decoder", "--case", "nothing", "--", "python3", "-c", "pass"])
        #expect(decoder.status == 3)
    }

    @Test("a server that cannot be reached is a harness error, exit status 2")
    func unreachableServer() throws {
        let run = try DecafProcess.run(["conform", "server", "127.0.0.1:9", "--case", "exchange.heartbeat", "--timeout", "0.5"])
        #expect(run.status == 2)
        #expect(run.output.contains("harness"))
    }

    @Test("repro prints the exact bytes of a case's steps")
    func repro() throws {
        let run = try DecafProcess.run(["conform", "repro", "exchange.heartbeat"])
        #expect(run.status == 0)
        let item = try #require(ConformanceCatalog().case("exchange.heartbeat"))
        let hex = item.transmissions.map { $0.bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex.allSatisfy { run.output.contains($0) })
        #expect(try DecafProcess.run(["conform", "repro", "no.such.case"]).status == 2)
    }

    @Test("vectors writes the codec cases as the committed vector files")
    func vectors() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-vectors-\(UUID().uuidString)")
        let run = try DecafProcess.run(["conform", "vectors", directory.path])
        #expect(run.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: FixturePaths.vectors.path).sorted()
        #expect(names.count == 5)
        for name in names {
            #expect(FileManager.default.contents(atPath: directory.appending(path: name).path) == FileManager.default.contents(atPath: FixturePaths.vectors.appending(path: name).path))
        }
    }
}
