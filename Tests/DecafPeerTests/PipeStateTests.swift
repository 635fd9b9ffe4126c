@testable import DecafPeer
import Glibc
import Testing

/// The look at a testee's pipe that tells a quiet testee (a grandchild holds its output open) from
/// one whose last lines or end the event loop has yet to read.
@Suite("a pipe's pending bytes")
struct PipeStateTests {
    @Test("an open, empty pipe has nothing pending; bytes written, or the writer gone, are pending")
    func pending() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(!PipeState.hasPending(ends[0]))
        #expect(write(ends[1], "x", 1) == 1)
        #expect(PipeState.hasPending(ends[0]))
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == 1)
        #expect(!PipeState.hasPending(ends[0]))
        close(ends[1])
        #expect(PipeState.hasPending(ends[0]), "the end of the pipe is still to be read")
    }
}
