@testable import DecafPeer
import NIOCore
import Testing

/// How the client suite cuts a testee's output into lines.
@Suite("line splitter")
struct LineSplitterTests {
    @Test("lines cut across reads come out whole; what follows the last newline is the rest")
    func linesAcrossReads() throws {
        var splitter = LineSplitter()
        var lines: [String] = []
        for chunk in ["{\"ev", "ent\":1}\n{\"event\":2}\n{\"eve", "nt\":3}\n\n{\"cut"] {
            var bytes = ByteBuffer(string: chunk)
            lines += try splitter.lines(adding: &bytes, limit: 100)
        }
        #expect(lines == [#"{"event":1}"#, #"{"event":2}"#, #"{"event":3}"#, ""])
        #expect(splitter.rest() == #"{"cut"#)
        #expect(splitter.rest() == nil)
    }

    @Test("a line longer than the limit is refused before it is all in")
    func tooLong() throws {
        var splitter = LineSplitter()
        var first = ByteBuffer(string: "0123456789")
        #expect(try splitter.lines(adding: &first, limit: 10) == [])
        var second = ByteBuffer(string: "a")
        #expect(throws: LineSplitter.LineTooLong.self) { try splitter.lines(adding: &second, limit: 10) }
    }

    /// A client kept for many inputs (a fuzzing session) may print a longer line for a later input
    /// than its first allowed: the limit is the case's under way, not the first's.
    @Test("the limit is the one given with the bytes: a later, larger one lets a longer line through")
    func limitOfTheMoment() throws {
        var splitter = LineSplitter()
        var first = ByteBuffer(string: "0123456789")
        #expect(try splitter.lines(adding: &first, limit: 10) == [])
        var second = ByteBuffer(string: "abc\n")
        #expect(try splitter.lines(adding: &second, limit: 20) == ["0123456789abc"])
    }
}
