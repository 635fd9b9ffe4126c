import DecafWire
import NIOCore

/// Passes a client's frames and protocol errors to the driver.
final class ScriptedConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = Frame

    private let driver: NIOLoopBound<ClientCaseDriver>

    init(driver: NIOLoopBound<ClientCaseDriver>) {
        self.driver = driver
    }

    private func link(_ context: ChannelHandlerContext) -> Int? {
        (try? context.pipeline.syncOperations.handler(type: ScriptedConnectionRecorder.self))?.link
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let link = link(context) else { return }
        driver.value.received(unwrapInboundIn(data), on: link)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? WireError, let link = link(context) {
            driver.value.failed(error, on: link)
        } else if case ByteToMessageDecoderError.dataReceivedInErrorState = error {
            // Bytes after a protocol error: the server already answered it (an ERROR, a close);
            // closing here would be the suite's close, which the transcript would give the client.
            return
        } else {
            context.close(promise: nil)
        }
    }
}
