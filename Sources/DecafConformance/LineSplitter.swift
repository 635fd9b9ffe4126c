import NIOCore

/// Cuts a testee's standard output into lines, refusing one longer than `limit` bytes (a testee
/// that never ends its line must not grow the suite's memory without bound).
struct LineSplitter: ByteToMessageDecoder {
    typealias InboundOut = String

    /// A line longer than this is an error.
    let limit: Int

    struct LineTooLong: Error {}

    /// Bytes of the current line already searched for its end, so a long line is searched once.
    private var searched = 0

    init(limit: Int) {
        self.limit = limit
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let unsearched = buffer.readableBytesView.dropFirst(searched)
        guard let newline = unsearched.firstIndex(of: UInt8(ascii: "\n")) else {
            searched = buffer.readableBytes
            if buffer.readableBytes > limit { throw LineTooLong() }
            return .needMoreData
        }
        searched = 0
        let length = newline - buffer.readerIndex
        let line = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0, let rest = buffer.readString(length: buffer.readableBytes) {
            context.fireChannelRead(wrapInboundOut(rest))
        }
        return .needMoreData
    }
}
