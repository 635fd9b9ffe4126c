@testable import DecafPeer
import NIOCore
import Testing

/// How the client suite cuts a testee's output into lines.
@Suite("line splitter")
struct LineSplitterTests {
    @Test("lines cut across reads come out whole; what follows the last newline is the rest")
    func linesAcrossReads() throws {
        var splitter = LineSplitter(limit: 100)
        var lines: [String] = []
        for chunk in ["{\"ev", "ent\":1}\n{\"event\":2}\n{\"eve", "nt\":3}\n\n{\"cut"] {
            var bytes = ByteBuffer(string: chunk)
            lines += try splitter.lines(adding: &bytes)
        }
        #expect(lines == [#"{"event":1}"#, #"{"event":2}"#, #"{"event":3}"#, ""])
        #expect(splitter.rest() == #"{"cut"#)
        #expect(splitter.rest() == nil)
    }

    @Test("a line longer than the limit is refused before it is all in")
    func tooLong() throws {
        var splitter = LineSplitter(limit: 10)
        var first = ByteBuffer(string: "0123456789")
        #expect(try splitter.lines(adding: &first) == [])
        var second = ByteBuffer(string: "a")
        #expect(throws: LineSplitter.LineTooLong.self) { try splitter.lines(adding: &second) }
    }
}
