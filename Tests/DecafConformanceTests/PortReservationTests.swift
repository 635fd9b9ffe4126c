@testable import DecafConformance
import NIOCore
import NIOPosix
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The port the client suite's scripted server holds while it refuses connections.
@Suite("port reservation")
struct PortReservationTests {
    @Test("a reserved port refuses connections and no other socket can listen on it; the suite's listener can, and is reached")
    func reserves() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let reservation = try #require(PortReservation(port: 0))
        let port = reservation.port
        #expect(port > 0)
        await #expect(throws: (any Error).self, "another socket cannot listen on the reserved port") {
            try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: port).get().close()
        }
        await #expect(throws: (any Error).self, "a connection attempt is refused") {
            try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port).get().close()
        }
        // As the suite listens again: sharing the port with the reservation.
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(NIOBSDSocket.Option(rawValue: SO_REUSEPORT)), value: 1)
            .bind(host: "127.0.0.1", port: port).get()
        let client = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port).get()
        try await client.close()
        try await listener.close()
        withExtendedLifetime(reservation) {}
    }
}
