import NIOCore

/// Hands what a client testee writes on its standard error to its driver, read by read, so the
/// pipe never fills and the testee never blocks on it; the driver keeps only its tail.
final class TesteeErrorHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let onBytes: (ByteBufferView) -> Void

    init(_ onBytes: @escaping (ByteBufferView) -> Void) {
        self.onBytes = onBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onBytes(unwrapInboundIn(data).readableBytesView)
    }
}
