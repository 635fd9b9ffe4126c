import CDirectIO
import DecafCapture
import DecafTestSupport
import DecafWire
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `decaf dissect` writing a listing of tens of MiB into a file, as users keep big captures'
/// listings: past its first 16 MiB the listing goes around the page cache, and the file holds
/// exactly what a pipe gets, wherever the shell put it; a file that refuses the bytes is said so.
@Suite("decaf dissect into big files")
struct LargeOutputTests {
    /// Runs `script` in the shell with `$0` the decaf executable, `$1` a capture of 64 DATA frames
    /// of 60,000 bytes of text each (a --json listing of about 27 MiB) and `$2` a file in the
    /// temporary directory, and hands `check` the run, the listing a pipe gets, and the file's path;
    /// the capture and the file are removed afterwards.
    static func withCapture(_ script: String, check: (ChildProcess.Run, [UInt8], String) throws -> Void) async throws {
        var conversation = SyntheticConversation(start: CaptureTime(seconds: 1_700_000_000, nanoseconds: 0))
        conversation.handshake()
        var encoder = FrameEncoder()
        for counter in 1...64 {
            let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: UInt32(counter)),
                                     timestamp: 1_700_000_000, sessionID: SessionID(rawValue: 7))
            conversation.send(encoder.encode(header, fields: [TLVField(tag: .text, text: String(repeating: "m", count: 60_000))]), .clientToServer)
        }
        conversation.close()
        let directory = FileManager.default.temporaryDirectory
        let capture = directory.appending(path: "decaf-big-\(UUID().uuidString).pcap")
        let file = directory.appending(path: "decaf-big-\(UUID().uuidString).json")
        defer {
            try? FileManager.default.removeItem(at: capture)
            try? FileManager.default.removeItem(at: file)
        }
        try Data(CaptureWriter.pcap(conversation.records, linkType: .ethernet)).write(to: capture)
        let piped = try await DecafProcess.run(["dissect", "--json", capture.path])
        #expect(piped.status == 0 && piped.outputBytes.count > 24 << 20, "\(piped.error)")
        let run = try await ChildProcess.run(URL(filePath: "/bin/sh"), ["-c", script, FixturePaths.decafExecutable.path, capture.path, file.path])
        try check(run, piped.outputBytes, file.path)
    }

    /// How many of `path`'s bytes are in the page cache, or nil where that says nothing of how
    /// they were written: where a block written with O_DIRECT is refused or lands in the page
    /// cache all the same (tmpfs).
    static func cachedBytes(of path: String) -> Int? {
        let probePath = path + ".probe"
        let probe = open(probePath, O_CREAT | O_WRONLY | O_CLOEXEC | DECAF_O_DIRECT, 0o600)
        defer { unlink(probePath) }
        guard probe >= 0 else { return nil }
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 4096)
        defer { block.deallocate() }
        block.initializeMemory(as: UInt8.self, repeating: 0)
        let probed = pwrite(probe, block.baseAddress, 4096, 0)
        close(probe)
        guard probed == 4096, residentBytes(of: probePath) == 0 else { return nil }
        return residentBytes(of: path)
    }

    /// How many of `path`'s bytes are in the page cache, as mincore(2) sees them.
    static func residentBytes(of path: String) -> Int? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else { return nil }
        defer { munmap(mapping, size) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = [UInt8](repeating: 0, count: (size + page - 1) / page)
        guard mincore(mapping, size, &resident) == 0 else { return nil }
        return resident.count(where: { $0 & 1 == 1 }) * page
    }

    /// Where the file at `path` first differs from `expected` (its length if one is a prefix of
    /// the other), or nil when it holds exactly `expected`: a listing's mismatch in a few words.
    static func firstDifference(of path: String, from expected: [UInt8]) throws -> Int? {
        let written = [UInt8](try Data(contentsOf: URL(filePath: path)))
        if written == expected { return nil }
        return zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(written.count, expected.count)
    }

    @Test("--json into a file: the bytes a pipe gets, all but the first 16 MiB written around the page cache")
    func intoFile() async throws {
        try await Self.withCapture(#"exec "$0" dissect --json "$1" > "$2""#) { run, listing, file in
            #expect(run.status == 0, "\(String(decoding: run.error, as: UTF8.self))")
            if let cached = Self.cachedBytes(of: file) {
                #expect(cached <= (16 << 20) + (2 << 20), "\(cached) bytes of the listing went through the page cache")
            } else {
                print("the temporary directory's file system is tmpfs or takes no O_DIRECT: not checking what went around the page cache")
            }
            let difference = try Self.firstDifference(of: file, from: listing)
            #expect(difference == nil, "the file differs from the listing at byte \(difference ?? 0)")
        }
    }

    @Test("--json after what the shell wrote before, on an offset that is not a block's, and before what it writes after")
    func betweenOtherWrites() async throws {
        try await Self.withCapture(#"{ printf abc; "$0" dissect --json "$1"; printf 'end\n'; } > "$2""#) { run, listing, file in
            #expect(run.status == 0)
            let difference = try Self.firstDifference(of: file, from: Array("abc".utf8) + listing + Array("end\n".utf8))
            #expect(difference == nil, "the file differs from what was written at byte \(difference ?? 0)")
        }
    }

    @Test("--json appended to a file with >>")
    func appended() async throws {
        try await Self.withCapture(#"printf xy > "$2" && exec "$0" dissect --json "$1" >> "$2""#) { run, listing, file in
            #expect(run.status == 0)
            let difference = try Self.firstDifference(of: file, from: Array("xy".utf8) + listing)
            #expect(difference == nil, "the file differs from what was written at byte \(difference ?? 0)")
        }
    }

    @Test("output refused by a full disk: exit 2 and one line that says so, in every kind of listing", arguments: [
        #"exec "$0" dissect --json "$1" > /dev/full"#, #"exec "$0" dissect --stats "$1" > /dev/full"#,
        #"exec "$0" dissect -V --hex decafbad > /dev/full"#,
    ])
    func fullDisk(script: String) async throws {
        try await Self.withCapture(script) { run, _, _ in
            #expect(run.status == 2)
            #expect(String(decoding: run.error, as: UTF8.self)
                == "Error: cannot write the output: No space left on device; free some space or write it elsewhere\n")
        }
    }
}
