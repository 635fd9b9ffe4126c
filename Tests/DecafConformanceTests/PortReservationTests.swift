@testable import DecafConformance
import NIOCore
import NIOPosix
import Testing

/// The port the client suite's scripted server holds while it refuses connections.
@Suite("port reservation")
struct PortReservationTests {
    @Test("a reserved port refuses connections, and no other socket can listen on it until it is released")
    func reserves() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let probe = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(probe.localAddress?.port)
        try await probe.close()
        try await Self.whileReserved(port) {
            await #expect(throws: (any Error).self, "another socket cannot listen on the reserved port") {
                try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: port).get().close()
            }
            await #expect(throws: (any Error).self, "a connection attempt is refused") {
                try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port).get().close()
            }
        }
        let listener = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: port).get()
        try await listener.close()
    }

    /// Runs `body` while `port` is reserved.
    static func whileReserved(_ port: Int, _ body: () async throws -> Void) async throws {
        let reservation = try #require(PortReservation(port: port) as PortReservation?)
        try await body()
        withExtendedLifetime(reservation) {}
    }
}
