import DecafConformance
import NIOCore

/// Cuts a testee's output into lines and passes them, when its output last brought bytes, and the
/// end of its output to the driver.
final class TesteeLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let driver: NIOLoopBound<ClientCaseDriver>
    private let instance: Int
    private var splitter: LineSplitter

    init(driver: NIOLoopBound<ClientCaseDriver>, instance: Int) {
        self.driver = driver
        self.instance = instance
        splitter = LineSplitter()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        let driver = driver.value
        driver.outputArrived(instance)
        do {
            for line in try splitter.lines(adding: &bytes, limit: driver.lineLimit) { driver.line(line, from: instance) }
        } catch {
            driver.lineTooLong(from: instance)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        ended()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { ended() }
        context.fireUserInboundEventTriggered(event)
    }

    private func ended() {
        if let rest = splitter.rest() { driver.value.unterminatedLine(rest, from: instance) }
        driver.value.outputClosed(instance)
    }
}
