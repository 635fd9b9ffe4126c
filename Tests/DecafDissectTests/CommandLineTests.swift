import DecafTestSupport
import Foundation
import Testing

/// The `decaf` executable run as a user runs it.
@Suite("decaf dissect on the command line")
struct CommandLineTests {
    static func decaf(_ arguments: [String], input: Data? = nil) throws -> DecafProcess.Run {
        try DecafProcess.run(arguments, input: input)
    }

    static let helloHex = "decafbad01000000000000016553f1000000444c0000000b8a4cde3110010000000568656c6c6f"

    @Test("a valid frame given as hex exits 0")
    func validHex() throws {
        let run = try Self.decaf(["dissect", "--hex", Self.helloHex])
        #expect(run.status == 0)
        #expect(run.output.contains("DATA") && run.output.contains("ok"))
    }

    @Test("hex piped to standard input is read and detected")
    func stdinHex() throws {
        let run = try Self.decaf(["dissect", "-V"], input: Data("# a frame\n\(Self.helloHex)\n".utf8))
        #expect(run.status == 0)
        #expect(run.output.contains("TEXT (0x1001), 5 bytes: \"hello\""))
    }

    @Test("a binary file with a bad frame exits 1 and names the error, requirement and offset")
    func invalidBinary() throws {
        let path = FixturePaths.fixtures.appending(path: "frames/checksum/207.bin").path
        let run = try Self.decaf(["dissect", path])
        #expect(run.status == 1)
        #expect(run.output.contains("CHECKSUM_MISMATCH (CRC-2) at offset 24"))
        #expect(run.output.contains("little-endian"))
        #expect(run.output.contains("^^ ^^ ^^ ^^"))
    }

    @Test("usage and input errors exit 2", arguments: [
        ["dissect", "--bogus"], ["dissect", "--hex", "zz"], ["dissect", "/no/such/file"], ["dissect", "a", "b"],
        ["dissect", "--json", "-V", "--hex", "00"], ["dissect", "--body-limit", "-1", "--hex", "00"],
    ])
    func usageErrors(arguments: [String]) throws {
        let run = try Self.decaf(arguments)
        #expect(run.status == 2)
        #expect(run.error.contains("Error:"))
    }

    @Test("empty standard input is an input error")
    func emptyInput() throws {
        #expect(try Self.decaf(["dissect"], input: Data()).status == 2)
    }
}

@Suite("Specs/dissect-json.md")
struct DissectJSONDocumentTests {
    @Test("the documented example is exactly what decaf dissect --json prints")
    func example() throws {
        let document = String(decoding: FileManager.default.contents(atPath: FixturePaths.root.appending(path: "Specs/dissect-json.md").path)!, as: UTF8.self)
        let path = FixturePaths.fixtures.appending(path: "frames/frame-basic/1.bin").path
        let run = try CommandLineTests.decaf(["dissect", "--json", path])
        #expect(run.status == 0)
        #expect(document.contains(run.output.trimmingCharacters(in: .newlines)))
    }
}
