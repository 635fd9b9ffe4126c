import NIOCore

/// Hands on the first bytes a connection receives (the first read, up to `limit`), before anything
/// behind it in the pipeline sees them, then leaves the pipeline. What a peer said first tells what
/// it is when it is not a Decaf peer at all (an HTTP server, a TLS port).
final class FirstBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    static let limit = 256

    private let onFirstBytes: ([UInt8]) -> Void

    init(_ onFirstBytes: @escaping ([UInt8]) -> Void) {
        self.onFirstBytes = onFirstBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onFirstBytes(Array(unwrapInboundIn(data).readableBytesView.prefix(Self.limit)))
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
