import NIOCore

/// Passes the bytes a client writes to its driver's transcript, then on to the frame decoder.
final class ScriptedConnectionRecorder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let driver: NIOLoopBound<ClientCaseDriver>
    var link: Int?

    init(driver: NIOLoopBound<ClientCaseDriver>) {
        self.driver = driver
    }

    func channelActive(context: ChannelHandlerContext) {
        link = driver.value.accepted(context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if let link { driver.value.read(Array(buffer.readableBytesView), on: link) }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let link { driver.value.closed(link) }
        context.fireChannelInactive()
    }
}
