import NIOCore

/// Hands what a client testee writes on its standard error to its driver, read by read, so the
/// pipe never fills and the testee never blocks on it; the driver keeps only its tail. The end of
/// the pipe is told too: a testee's last words are in before its case is judged.
final class TesteeErrorHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let onBytes: (ByteBufferView) -> Void
    private let onEnd: () -> Void
    private var ended = false

    init(_ onBytes: @escaping (ByteBufferView) -> Void, onEnd: @escaping () -> Void) {
        self.onBytes = onBytes
        self.onEnd = onEnd
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onBytes(unwrapInboundIn(data).readableBytesView)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { end() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end()
        context.fireChannelInactive()
    }

    private func end() {
        guard !ended else { return }
        ended = true
        onEnd()
    }
}
