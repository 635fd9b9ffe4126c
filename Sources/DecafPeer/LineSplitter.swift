import NIOCore

/// Cuts a testee's standard output into lines, refusing one longer than a limit (a testee that
/// never ends its line must not grow the suite's memory without bound).
struct LineSplitter {
    struct LineTooLong: Error {}

    private var pending = ByteBuffer()
    /// Bytes of the current line already searched for its end, so a long line is searched once.
    private var searched = 0

    /// The lines `bytes` completes, without their newlines; the line left unfinished may be at most
    /// `limit` bytes.
    mutating func lines(adding bytes: inout ByteBuffer, limit: Int) throws(LineTooLong) -> [String] {
        pending.writeBuffer(&bytes)
        var lines: [String] = []
        while let newline = pending.readableBytesView.dropFirst(searched).firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(pending.readString(length: newline - pending.readerIndex) ?? "")
            pending.moveReaderIndex(forwardBy: 1)
            searched = 0
        }
        pending.discardReadBytes()
        searched = pending.readableBytes
        if pending.readableBytes > limit { throw LineTooLong() }
        return lines
    }

    /// What came after the last newline, if anything: a line the output ended in the middle of.
    mutating func rest() -> String? {
        defer { pending.clear() }
        return pending.readableBytes > 0 ? pending.readString(length: pending.readableBytes) : nil
    }
}
