import DecafCapture
import DecafTestSupport
import DecafWire
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `decaf dissect` writing a listing of tens of MiB into a file, as users keep big captures'
/// listings: the file holds exactly what a pipe gets, wherever the shell put it, also when other
/// programs write to the same open file at the same time; a file that refuses the bytes is said so.
@Suite("decaf dissect into big files")
struct LargeOutputTests {
    /// What a script gets: the run, the listings a pipe gets of the two captures, and the file.
    struct Outcome: Sendable {
        var run: ChildProcess.Run
        var listings: [[UInt8]]
        var file: String
    }

    /// Runs `script` in the shell with `$0` the decaf executable, `$1` and `$2` captures of 64 DATA
    /// frames of 60,000 bytes of text each (the first of m, the second, made only when `both`, of
    /// n: --json listings of about 27 MiB) and `$3` a file in the temporary directory, and hands
    /// `check` what came of it; the captures and the file are removed afterwards. Making the
    /// captures, and reading tens of MiB in the checks, take seconds of a core: they run on a
    /// thread of their own, not on the cooperative threads every other test waits its turn on.
    static func withCaptures(both: Bool = false, _ script: String, check: (Outcome) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
        let letters = both ? ["m", "n"] : ["m"]
        let captures = ["m", "n"].map { _ in directory.appending(path: "decaf-big-\(UUID().uuidString).pcap") }
        let file = directory.appending(path: "decaf-big-\(UUID().uuidString).json")
        defer {
            for capture in captures { try? FileManager.default.removeItem(at: capture) }
            try? FileManager.default.removeItem(at: file)
        }
        var listings: [[UInt8]] = []
        for (capture, letter) in zip(captures, letters) {
            try await ChildProcess.offCooperativeThreads {
                var conversation = SyntheticConversation(start: CaptureTime(seconds: 1_700_000_000, nanoseconds: 0))
                conversation.handshake()
                var encoder = FrameEncoder()
                for counter in 1...64 {
                    let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: UInt32(counter)),
                                             timestamp: 1_700_000_000, sessionID: SessionID(rawValue: 7))
                    conversation.send(encoder.encode(header, fields: [TLVField(tag: .text, text: String(repeating: letter, count: 60_000))]), .clientToServer)
                }
                conversation.close()
                try Data(CaptureWriter.pcap(conversation.records, linkType: .ethernet)).write(to: capture)
            }
            let piped = try await DecafProcess.run(["dissect", "--json", capture.path])
            #expect(piped.status == 0 && piped.outputBytes.count > 24 << 20, "\(piped.error)")
            listings.append(piped.outputBytes)
        }
        let run = try await ChildProcess.run(URL(filePath: "/bin/sh"), ["-c", script, FixturePaths.decafExecutable.path] + captures.map(\.path) + [file.path])
        let outcome = Outcome(run: run, listings: listings, file: file.path)
        try await check(outcome)
    }

    /// Where the file at `path` first differs from `expected` (its length if one is a prefix of
    /// the other), or nil when it holds exactly `expected`: a listing's mismatch in a few words.
    static func firstDifference(of path: String, from expected: [UInt8]) async throws -> Int? {
        try await ChildProcess.offCooperativeThreads {
            Self.firstDifference(of: [UInt8](try Data(contentsOf: URL(filePath: path))), from: expected)
        }
    }

    static func firstDifference(of written: [UInt8], from expected: [UInt8]) -> Int? {
        if written == expected { return nil }
        return zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(written.count, expected.count)
    }

    @Test("--json into a file: the bytes a pipe gets")
    func intoFile() async throws {
        try await Self.withCaptures(#"exec "$0" dissect --json "$1" > "$3""#) { outcome in
            #expect(outcome.run.status == 0, "\(String(decoding: outcome.run.error, as: UTF8.self))")
            let difference = try await Self.firstDifference(of: outcome.file, from: outcome.listings[0])
            #expect(difference == nil, "the file differs from the listing at byte \(difference ?? 0)")
        }
    }

    @Test("--json after what the shell wrote before, on an offset that is not a block's, and before what it writes after")
    func betweenOtherWrites() async throws {
        try await Self.withCaptures(#"{ printf abc; "$0" dissect --json "$1"; printf 'end\n'; } > "$3""#) { outcome in
            #expect(outcome.run.status == 0)
            let difference = try await Self.firstDifference(of: outcome.file, from: Array("abc".utf8) + outcome.listings[0] + Array("end\n".utf8))
            #expect(difference == nil, "the file differs from what was written at byte \(difference ?? 0)")
        }
    }

    @Test("--json appended to a file with >>")
    func appended() async throws {
        try await Self.withCaptures(#"printf xy > "$3" && exec "$0" dissect --json "$1" >> "$3""#) { outcome in
            #expect(outcome.run.status == 0)
            let difference = try await Self.firstDifference(of: outcome.file, from: Array("xy".utf8) + outcome.listings[0])
            #expect(difference == nil, "the file differs from what was written at byte \(difference ?? 0)")
        }
    }

    @Test("another writer on the same open file while the listing is written: every byte of both is kept")
    func sharedWithAnotherWriter() async throws {
        // The marker is written once the listing has passed 17 MiB (or has ended, on a fast machine).
        let script = #"""
            { "$0" dissect --json "$1" & pid=$!
              while kill -0 $pid 2>/dev/null && [ "$(stat -c %s "$3")" -lt 17825792 ]; do sleep 0.01; done
              printf 'MARKMARK\n'; wait $pid; } > "$3"
            """#
        try await Self.withCaptures(script) { outcome in
            #expect(outcome.run.status == 0)
            let (count, marked, difference) = try await ChildProcess.offCooperativeThreads {
                var written = [UInt8](try Data(contentsOf: URL(filePath: outcome.file)))
                let count = written.count
                guard let found = written.firstRange(of: Array("MARKMARK\n".utf8)) else { return (count, false, Int?.none) }
                written.removeSubrange(found)
                return (count, true, Self.firstDifference(of: written, from: outcome.listings[0]))
            }
            #expect(count == outcome.listings[0].count + 9, "the file has \(count) bytes, the listing and the marker \(outcome.listings[0].count + 9)")
            #expect(marked, "the marker was overwritten")
            #expect(difference == nil, "without the marker, the file differs from the listing at byte \(difference ?? 0)")
        }
    }

    @Test("two listings into one open file at once (xargs -P2): every byte of each is kept")
    func twoListingsAtOnce() async throws {
        try await Self.withCaptures(both: true, #"printf '%s\n' "$1" "$2" | xargs -P2 -n1 "$0" dissect --json > "$3""#) { outcome in
            #expect(outcome.run.status == 0)
            // The listings differ in the letter of their texts: each letter's count is the sum of both.
            let (count, letters) = try await ChildProcess.offCooperativeThreads {
                let written = [UInt8](try Data(contentsOf: URL(filePath: outcome.file)))
                return (written.count, "mn".utf8.map { letter in
                    (written.count(where: { $0 == letter }), outcome.listings.map { $0.count(where: { $0 == letter }) }.reduce(0, +))
                })
            }
            #expect(count == outcome.listings[0].count + outcome.listings[1].count)
            for (found, expected) in letters {
                #expect(found == expected, "bytes of one listing were lost or overwritten")
            }
        }
    }

    @Test("output refused by a full disk: exit 2 and one line that says so, in every kind of listing", arguments: [
        #"exec "$0" dissect --json "$1" > /dev/full"#, #"exec "$0" dissect --stats "$1" > /dev/full"#,
        #"exec "$0" dissect -V --hex decafbad > /dev/full"#,
    ])
    func fullDisk(script: String) async throws {
        try await Self.withCaptures(script) { outcome in
            #expect(outcome.run.status == 2)
            #expect(String(decoding: outcome.run.error, as: UTF8.self)
                == "Error: cannot write the output: No space left on device; free some space or write it elsewhere\n")
        }
    }
}
