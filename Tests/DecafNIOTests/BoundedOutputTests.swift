import DecafNIO
import Testing

/// What Decaf keeps of an output a target controls: its head and its tail, whatever the reads.
@Suite("bounded output")
struct BoundedOutputTests {
    @Test("the head and the tail are the stream's first and last bytes, in any pieces", arguments: [1, 3, 7, 16, 100, 1000])
    func headAndTail(piece: Int) {
        let stream = (0..<1000).map { UInt8($0 % 251) }
        var output = BoundedOutput(head: 10, tail: 16)
        var at = 0
        while at < stream.count {
            output.append(stream[at..<min(stream.count, at + piece)])
            at += piece
        }
        #expect(output.head == Array(stream.prefix(10)))
        #expect(output.tail == Array(stream.suffix(16)))
        #expect(output.total == 1000)
        #expect(output.omitted == 1000 - 10 - 16)
    }

    @Test("a short output is kept whole, with no marker")
    func short() {
        var output = BoundedOutput(head: 4, tail: 8)
        output.append(Array("hello, world".utf8))
        #expect(output.omitted == 0)
        #expect(output.text() == "hello, world")
        output.append(Array("!".utf8))
        #expect(output.text { "[\($0)]" } == "hell[1], world!")
    }
}
