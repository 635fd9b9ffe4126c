import DecafTestSupport
import DecafWire
import Foundation
import Testing

/// The `decaf` executable run as a user runs it.
@Suite("decaf dissect on the command line")
struct CommandLineTests {
    static func decaf(_ arguments: [String], input: Data? = nil) async throws -> DecafProcess.Run {
        try await DecafProcess.run(arguments, input: input)
    }

    static let helloHex = "decafbad01000000000000016553f1000000444c0000000b8a4cde3110010000000568656c6c6f"

    @Test("a valid frame given as hex exits 0")
    func validHex() async throws {
        let run = try await CommandLineTests.decaf(["dissect", "--hex", Self.helloHex])
        #expect(run.status == 0)
        #expect(run.output.contains("DATA") && run.output.contains("ok"))
    }

    @Test("hex piped to standard input is read and detected")
    func stdinHex() async throws {
        let run = try await CommandLineTests.decaf(["dissect", "-V"], input: Data("# a frame\n\(Self.helloHex)\n".utf8))
        #expect(run.status == 0)
        #expect(run.output.contains("TEXT (0x1001), 5 bytes: \"hello\""))
    }

    @Test("a binary file with a bad frame exits 1 and names the error, requirement and offset")
    func invalidBinary() async throws {
        let path = FixturePaths.fixtures.appending(path: "frames/checksum/207.bin").path
        let run = try await CommandLineTests.decaf(["dissect", path])
        #expect(run.status == 1)
        #expect(run.output.contains("CHECKSUM_MISMATCH (CRC-2) at offset 24"))
        #expect(run.output.contains("little-endian"))
        #expect(run.output.contains("^^ ^^ ^^ ^^"))
    }

    @Test("usage and input errors exit 2", arguments: [
        ["dissect", "--bogus"], ["dissect", "--hex", "zz"], ["dissect", "/no/such/file"], ["dissect", "a", "b"],
        ["dissect", "--json", "-V", "--hex", "00"], ["dissect", "--body-limit", "-1", "--hex", "00"],
    ])
    func usageErrors(arguments: [String]) async throws {
        let run = try await CommandLineTests.decaf(arguments)
        #expect(run.status == 2)
        #expect(run.error.contains("Error:"))
    }

    @Test("empty standard input is an input error")
    func emptyInput() async throws {
        #expect(try await Self.decaf(["dissect"], input: Data()).status == 2)
    }

    @Test("a file that is not a capture, hex or frames is refused with what it holds; a newline alone is not a truncated frame; /dev/zero is refused, not read forever")
    func notFrames() async throws {
        let readme = try await Self.decaf(["dissect", FixturePaths.root.appending(path: "README.md").path])
        #expect(readme.status == 2 && readme.output.isEmpty)
        #expect(readme.error.hasSuffix("README.md is not a capture, hex or frames: it holds text ('# Decaf'), and no 0xDECAFBAD anywhere in its "
            + "\(FileManager.default.contents(atPath: FixturePaths.root.appending(path: "README.md").path)!.count) bytes; give a pcap or pcapng capture, a file of frames, or hex\n"),
                "\(readme.error)")
        let newline = try await Self.decaf(["dissect"], input: Data("\n".utf8))
        #expect(newline.status == 2 && newline.error == "Error: standard input is not a capture, hex or frames: it holds only whitespace; give a pcap or pcapng capture, a file of frames, or hex\n")
        // An endless input without a magic is refused once it has shown enough, not read forever.
        let zeros = try await Self.decaf(["dissect", "/dev/zero"])
        #expect(zeros.status == 2 && zeros.error.hasPrefix("Error: /dev/zero is not a capture, hex or frames: it holds bytes that are not a Decaf frame")
                && zeros.error.contains("and no 0xDECAFBAD in its first 67108864 bytes (it was not read further)"), "\(zeros.error)")
        // Bytes that begin with a cut-off magic are still the start of a frame.
        #expect(try await Self.decaf(["dissect"], input: Data([0xDE, 0xCA])).output.contains("TRUNCATED_FRAME"))
    }

    @Test("a file of frames larger than a read is listed as it is read, from a file and from a pipe, as the same frames given as hex (read whole); a frame refused on its first bytes across a read's end shows its whole header")
    func fileOfFramesAsRead() async throws {
        let hello = Hex.bytes(Self.helloHex)!
        // 1 MiB is one read of a file: the 28 bytes after the last frame before it are not a frame,
        // and cross it.
        let before = (0..<((1 << 20) / hello.count)).flatMap { _ in hello }
        let bytes = before + Array("not a frame, across the end of a read".utf8) + (0..<30_000).flatMap { _ in hello }
        let binary = CaptureCommandLineTests.temporary("frames.bin"), hex = CaptureCommandLineTests.temporary("frames.hex")
        defer { try? FileManager.default.removeItem(atPath: binary); try? FileManager.default.removeItem(atPath: hex) }
        #expect(FileManager.default.createFile(atPath: binary, contents: Data(bytes)))
        #expect(FileManager.default.createFile(atPath: hex, contents: Data(Hex.string(bytes).utf8)))
        for arguments in [[String](), ["--json"]] {
            let file = try await Self.decaf(["dissect"] + arguments + [binary])
            let piped = try await Self.decaf(["dissect"] + arguments, input: Data(bytes))
            let whole = try await Self.decaf(["dissect"] + arguments + [hex])
            #expect(file.status == 1 && file.output.count > 3_000_000)
            #expect(file.output == whole.output && piped.output == whole.output, "\(arguments)")
        }
        let summary = try await Self.decaf(["dissect", binary]).output
        #expect(summary.contains("#\(before.count / hello.count + 1)  \(before.count) (28 bytes, not a frame)"), "the refused bytes are shown whole")
    }

    @Test("several files, one after another, each under a line naming it (a file record in JSON), as each alone")
    func severalFiles() async throws {
        let capture = FixturePaths.fixtures.appending(path: "captures/session-any.pcap").path
        let frames = FixturePaths.fixtures.appending(path: "frames/checksum/207.bin").path
        let both = try await Self.decaf(["dissect", capture, frames])
        let alone = [try await Self.decaf(["dissect", capture]), try await Self.decaf(["dissect", frames])]
        #expect(both.status == 1, "the worst of 0 and 1")
        #expect(both.output == "==> \(capture) <==\n" + alone[0].output + "\n==> \(frames) <==\n" + alone[1].output)
        let json = try await CommandLineTests.decaf(["dissect", "--json", capture, frames])
        let lines = json.output.split(separator: "\n")
        #expect(lines.filter { $0.contains(#""record":"file""#) } == [#"{"path":"\#(capture)","record":"file"}"#, #"{"path":"\#(frames)","record":"file"}"#])
        let missing = try await Self.decaf(["dissect", "/no/such/file", capture])
        #expect(missing.status == 2 && missing.error.hasPrefix("Error: /no/such/file: cannot read /no/such/file") && missing.output.contains(alone[0].output),
                "a file that cannot be read is said, and the others are dissected")
    }

    @Test("written to a terminal, each line fits its width, ending in …; written to a pipe, nothing is cut")
    func terminalWidth() async throws {
        let capture = FixturePaths.fixtures.appending(path: "captures/damaged.pcap").path
        let piped = try await Self.decaf(["dissect", capture])
        #expect(piped.output.split(separator: "\n").contains { $0.count > 60 }, "the listing has long lines to cut")
        // script(1) runs it on a terminal; COLUMNS sets the width where the terminal has none.
        let command = "COLUMNS=60 '\(FixturePaths.decafExecutable.path)' dissect '\(capture)'"
        let run = try await ChildProcess.run(URL(filePath: "/usr/bin/script"), ["-qec", command, "/dev/null"])
        let lines = String(decoding: run.output, as: UTF8.self).replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.count <= 60 }, "\(lines.filter { $0.count > 60 })")
        #expect(lines.contains { $0.count == 60 && $0.hasSuffix("…") })
        let terminalLines = Set(lines.map(String.init))
        let shortLines = piped.output.split(separator: "\n").map(String.init).filter { $0.count <= 60 }
        #expect(shortLines.allSatisfy { terminalLines.contains($0) }, "lines that fit are not changed")
    }
}

@Suite("Specs/dissect-json.md")
struct DissectJSONDocumentTests {
    @Test("the documented example is exactly what decaf dissect --json prints")
    func example() async throws {
        let document = String(decoding: FileManager.default.contents(atPath: FixturePaths.root.appending(path: "Specs/dissect-json.md").path)!, as: UTF8.self)
        let path = FixturePaths.fixtures.appending(path: "frames/frame-basic/1.bin").path
        let run = try await CommandLineTests.decaf(["dissect", "--json", path])
        #expect(run.status == 0)
        #expect(document.contains(run.output.trimmingCharacters(in: .newlines)))
    }
}

/// `decaf build` and `decaf dissect` on captures, as a user chains them.
@Suite("decaf build and decaf dissect on captures, on the command line")
struct CaptureCommandLineTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appending(path: "decaf-\(UUID().uuidString)-\(name)").path
    }

    @Test("a frame built into a pcap and a pcapng is dissected from them with its connection and direction", arguments: ["--pcap", "--pcapng"])
    func buildThenDissect(format: String) async throws {
        let file = Self.temporary("built")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let built = try await CommandLineTests.decaf(["build", "--type", "DATA", "--counter", "7", "--tlv", "TEXT=hi", "--timestamp", "1700000000", format, file])
        #expect(built.status == 0, "\(built.error)")
        let run = try await CommandLineTests.decaf(["dissect", "--json", file])
        #expect(run.status == 0)
        let frames = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["record"] as? String == "frame" }
        #expect(frames.count == 1)
        let header = frames.first?["header"] as? [String: Any]
        #expect(header?["sequenceCounter"] as? Int == 7 && header?["msgTypeName"] as? String == "DATA")
        #expect(frames.first?["direction"] as? String == "client-to-server")
        #expect((frames.first?["connection"] as? [String: Any])?["index"] as? Int == 1)
    }

    @Test("a broken frame in a capture exits 1 with its error, packet and stream offset; filters and --stats work on it")
    func brokenFrameInCapture() async throws {
        let file = Self.temporary("broken.pcap")
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try await CommandLineTests.decaf(["build", "--type", "DATA", "--tlv", "TEXT=hi", "--timestamp", "1700000000", "--bad-crc", "--pcap", file]).status == 0)
        let run = try await CommandLineTests.decaf(["dissect", file])
        #expect(run.status == 1)
        #expect(run.output.contains("CHECKSUM_MISMATCH (CRC-2) at offset 24"))
        #expect(run.output.contains("conn 1") && run.output.contains("pkt "))
        let filtered = try await CommandLineTests.decaf(["dissect", "--type", "HEARTBEAT", file])
        #expect(!filtered.output.contains("CHECKSUM_MISMATCH"))
        let stats = try await CommandLineTests.decaf(["dissect", "--stats", "--json", file])
        let summary = try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Any]
        #expect((summary?["errors"] as? [[String: Any]])?.first?["name"] as? String == "CHECKSUM_MISMATCH")
    }

    @Test("a capture cut short exits with the file offset and keeps the frames before it")
    func truncatedCapture() async throws {
        let source = FixturePaths.fixtures.appending(path: "captures/session-ethernet.pcap").path
        let bytes = try #require(FileManager.default.contents(atPath: source))
        let cut = Self.temporary("cut.pcap")
        defer { try? FileManager.default.removeItem(atPath: cut) }
        try bytes.prefix(bytes.count - 10).write(to: URL(filePath: cut))
        let run = try await CommandLineTests.decaf(["dissect", cut])
        #expect(run.status == 1)
        #expect(run.output.contains("ok"))
        #expect(run.output.contains("capture file offset") && run.output.contains("the file ends inside a packet record"))
    }
}

@Suite("decaf dissect --stats round trips")
struct RoundTripSummaryTests {
    @Test("the summary's min and max are exact and its median and p99 within 0.1% (or half a microsecond) of the exact ones")
    func summaryMatchesEachRoundTrip() async throws {
        let capture = FixturePaths.fixtures.appending(path: "captures/session-any.pcapng").path
        let run = try await CommandLineTests.decaf(["dissect", "--stats", "--json", capture])
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let each = try #require(stats["roundTrips"] as? [[String: Any]]).compactMap { $0["nanoseconds"] as? Int }.sorted()
        let summary = try #require(stats["roundTrip"] as? [String: Int])
        try #require(each.count > 3)
        func exact(_ p: Double) -> Int { each[min(each.count - 1, Int((Double(each.count) * p).rounded(.up)) - 1)] }
        #expect(summary["min"] == each.first && summary["max"] == each.last)
        for (key, p) in [("median", 0.5), ("p99", 0.99)] {
            let value = try #require(summary[key])
            #expect(abs(value - exact(p)) <= max(512, exact(p) / 1000), "\(key): \(value) vs \(exact(p))")
        }
        let text = try await CommandLineTests.decaf(["dissect", "--stats", capture])
        #expect(text.output.contains("ACK round trip over \(each.count) acknowledged frame(s)"))
    }
}

extension CaptureCommandLineTests {
    @Test("--tag names a tag of one's own in a capture's summary, tree, hexdump and JSON, and in the Wireshark plugin; a bad --tag is one line, exit 2")
    func ownTags() async throws {
        let file = Self.temporary("own-tags.pcap")
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try await CommandLineTests.decaf(["build", "--type", "DATA", "--tlv", "0x2001=hello", "--tlv", "CONTAINER=[{\"tag\":8194,\"hex\":\"0102\"}]", "--pcap", file]).status == 0)
        let tags = ["--tag", "0x2001=STICKER:text", "--tag", "8194=CAPTION"]
        let summary = try await CommandLineTests.decaf(["dissect", file] + tags)
        #expect(summary.status == 0)
        #expect(summary.output.contains(" STICKER,CONTAINER "))
        let tree = try await CommandLineTests.decaf(["dissect", "-V", "--hexdump", file] + tags)
        #expect(tree.output.contains("STICKER (0x2001), 5 bytes: \"hello\""))
        #expect(tree.output.contains("CAPTION (0x2002), 2 bytes: 01 02"))
        #expect(tree.output.contains("CAPTION tag, length 2"))
        let json = try await CommandLineTests.decaf(["dissect", "--json", file] + tags)
        #expect(json.output.contains(#"{"decoded":{"text":"hello"},"length":5,"name":"STICKER","offset":0,"tag":8193,"value":"68656c6c6f"}"#))
        #expect(json.output.contains(#"{"length":2,"name":"CAPTION","offset":"#))
        let plugin = try await CommandLineTests.decaf(["wireshark-plugin"] + tags)
        #expect(plugin.output.contains("[8193] = \"STICKER\", [8194] = \"CAPTION\""))
        for (bad, says) in [("0x1001=MESSAGE", "--tag 0x1001=MESSAGE: tag 0x1001 is already TEXT"), ("0x2001=sticker", "capital letters"),
                            ("0x2001=A:jpeg", "the value's layout is text or bytes")] {
            let run = try await CommandLineTests.decaf(["dissect", "--tag", bad, file])
            #expect(run.status == 2)
            #expect(run.error.contains(says), "\(run.error)")
            #expect(run.error.split(separator: "\n").count == 1, "\(run.error)")
        }
    }
}
