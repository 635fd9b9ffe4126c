import NIOCore
import NIOHTTP1

/// One control API connection: collects a request (refusing bodies over 1 MiB and requests from
/// browsers, as toxiproxy does, so a web page cannot drive the proxy), asks `ProxyControl`, and
/// writes the answer in order (NIO's pipelining handler holds later requests until then).
final class ControlHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private static let bodyLimit = 1 << 20
    private let control: ProxyControl
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false

    init(control: ProxyControl) {
        self.control = control
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            self.head = head
            body = []
            tooLarge = false
        case var .body(buffer):
            if body.count + buffer.readableBytes > Self.bodyLimit {
                tooLarge = true
            } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
                body += bytes
            }
        case .end:
            guard let head else { return }
            self.head = nil
            answer(head, context: context)
        }
    }

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let request = ProxyControl.Request(method: head.method.rawValue, path: head.uri, body: body)
        body = []
        let refusal: ProxyControl.Response? = if tooLarge {
            ProxyControl.Response(status: 413, body: Array(#"{"error":"request body over 1 MiB","status":413}"#.utf8))
        } else if head.headers["User-Agent"].contains(where: { $0.hasPrefix("Mozilla/") }) {
            ProxyControl.Response(status: 403, body: Array(#"{"error":"browsers may not use the control API","status":403}"#.utf8))
        } else {
            nil
        }
        let promise = context.eventLoop.makePromise(of: ProxyControl.Response.self)
        if let refusal {
            promise.succeed(refusal)
        } else {
            let control = control
            promise.completeWithTask { await control.respond(to: request) }
        }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let keepAlive = head.isKeepAlive
        let version = head.version
        promise.futureResult.whenSuccess { response in
            let (handler, context) = bound.value
            handler.write(response, version: version, keepAlive: keepAlive, context: context)
        }
    }

    /// A request ID: 20 characters of lowercase base-32, the shape of toxiproxy's.
    static func requestID() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuv")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(generator.next() % 32)] })
    }

    private func write(_ response: ProxyControl.Response, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        // Each answer carries an ID of its own, as toxiproxy's do, for clients that log it.
        headers.add(name: "X-Toxiproxy-Request-Id", value: Self.requestID())
        if !response.body.isEmpty { headers.add(name: "Content-Type", value: "application/json") }
        headers.add(name: "Content-Length", value: String(response.body.count))
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !response.body.isEmpty { context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil) }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.whenComplete { _ in bound.value.close(promise: nil) }
        }
    }
}
