import DecafWire
import NIOCore
import NIOPosix

/// `decaf send`: DATA frames on one or more connections, as a well-behaved mobile client sends
/// them, with the ACK latency and the losses reported (see `SendConnection`).
public enum SendClient {
    public static func run(
        _ configuration: SendConfiguration, threads: Int = System.coreCount, clock: @escaping @Sendable () -> UInt32
    ) async throws -> SendReport {
        precondition(configuration.count <= Int(SequenceNumber.maxCounter), "at most 16,777,215 messages per connection")
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let started = ContinuousClock.now
        let futures = (0..<configuration.connections).map { index in
            let loop = group.next()
            return loop.flatSubmit {
                SendConnection(eventLoop: loop, configuration: configuration,
                               session: SessionID(rawValue: UInt16(truncatingIfNeeded: index + 1)), clock: clock).start()
            }
        }
        let outcomes = try await EventLoopFuture.whenAllSucceed(futures, on: group.next()).get()
        var report = SendReport()
        report.elapsed = ContinuousClock.now - started
        for outcome in outcomes {
            report.connections += outcome.report.connections
            report.sent += outcome.report.sent
            report.acknowledged += outcome.report.acknowledged
            report.lost += outcome.report.lost
            report.retransmissions += outcome.report.retransmissions
            report.duplicateAcks += outcome.report.duplicateAcks
            report.readReceipts += outcome.report.readReceipts
            report.reconnects += outcome.report.reconnects
            report.heartbeatsAcknowledged += outcome.report.heartbeatsAcknowledged
            report.negotiated += outcome.report.negotiated
            report.serverErrors += outcome.report.serverErrors
        }
        report.latency = LatencySummary(outcomes.flatMap(\.latencies))
        try await group.shutdownGracefully()
        return report
    }
}
