import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A client that collects the bytes it receives, for tests.
final class RawClient: Sendable {
    private let channel: Channel
    private let collector: Collector

    private init(channel: Channel, collector: Collector) {
        self.channel = channel
        self.collector = collector
    }

    static func connect(port: Int) async throws -> RawClient {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: ProxyLoopbackTests.group)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) } }
            .connect(host: "127.0.0.1", port: port).get()
        return RawClient(channel: channel, collector: collector)
    }

    func send(_ text: String) { channel.writeAndFlush(ByteBuffer(string: text), promise: nil) }

    func close() { channel.close(promise: nil) }

    /// The first `count` bytes received, once they have come (or all there were, if the
    /// connection closed first, or after `limit`: a test then fails on what came, instead of
    /// holding up the run).
    func received(count: Int, within limit: Duration = .seconds(30)) async -> [UInt8] {
        await collector.first(count, within: limit)
    }

    /// Everything received once the connection closed.
    func untilClosed() async throws -> [UInt8] {
        try await channel.closeFuture.get()
        return collector.bytes
    }

    /// Whether the connection ended with a reset (ECONNRESET), once it closed.
    func wasReset() async throws -> Bool {
        try await channel.closeFuture.get()
        return collector.reset
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer

        private struct State {
            var bytes: [UInt8] = []
            var closed = false
            var reset = false
            var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<[UInt8], Never>)] = []
            var lastID = 0

            /// Takes out the waiters whose bytes have come, with what each gets.
            mutating func satisfied() -> [(CheckedContinuation<[UInt8], Never>, [UInt8])] {
                let (ready, waiting) = (waiters.filter { closed || bytes.count >= $0.count }, waiters.filter { !closed && bytes.count < $0.count })
                waiters = waiting
                return ready.map { ($0.continuation, Array(bytes.prefix($0.count))) }
            }

            /// Takes out waiter `id`, if it still waits, with what has come.
            mutating func expired(_ id: Int) -> (CheckedContinuation<[UInt8], Never>, [UInt8])? {
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return (waiters.remove(at: index).continuation, bytes)
            }
        }

        private let state = NIOLockedValueBox(State())

        var bytes: [UInt8] { state.withLockedValue { $0.bytes } }

        var reset: Bool { state.withLockedValue { $0.reset } }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            if let error = error as? IOError, error.errnoCode == ECONNRESET { state.withLockedValue { $0.reset = true } }
            context.close(promise: nil)
        }

        /// The first `count` bytes, once they have come or the connection has closed; what has
        /// come after `limit`.
        func first(_ count: Int, within limit: Duration) async -> [UInt8] {
            await withCheckedContinuation { continuation in
                let (id, ready) = state.withLockedValue { state in
                    state.lastID += 1
                    state.waiters.append((state.lastID, count, continuation))
                    return (state.lastID, state.satisfied())
                }
                for (waiter, bytes) in ready { waiter.resume(returning: bytes) }
                Task { [state] in
                    try? await Task.sleep(for: limit)
                    if let (waiter, bytes) = state.withLockedValue({ $0.expired(id) }) { waiter.resume(returning: bytes) }
                }
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            let ready = state.withLockedValue { state in
                state.bytes += buffer.readableBytesView
                return state.satisfied()
            }
            for (waiter, bytes) in ready { waiter.resume(returning: bytes) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            let ready = state.withLockedValue { state in
                state.closed = true
                return state.satisfied()
            }
            for (waiter, bytes) in ready { waiter.resume(returning: bytes) }
            context.fireChannelInactive()
        }
    }
}
