import NIOCore

/// Passes the bytes a client writes to its driver's transcript, then on to the frame decoder.
final class ScriptedConnectionRecorder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let driver: NIOLoopBound<ClientCaseDriver>
    var index: Int?

    init(driver: NIOLoopBound<ClientCaseDriver>) {
        self.driver = driver
    }

    func channelActive(context: ChannelHandlerContext) {
        index = driver.value.accepted(context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if let index { driver.value.read(Array(buffer.readableBytesView), on: index) }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let index { driver.value.closed(index) }
        context.fireChannelInactive()
    }
}
