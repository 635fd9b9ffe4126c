import DecafNIO
import DecafSession
import DecafPeer
import DecafWire
import Logging

/// A peer on an ephemeral loopback port, with a fixed clock, and clients for it.
struct LoopbackPeer {
    static let now: UInt32 = 1_700_000_000
    /// The clocks the clients under test read: always `now`.
    @Sendable static func clock() -> UInt32 { now }

    let server: PeerServer

    static func start(_ change: (inout PeerConfiguration) -> Void = { _ in }) async throws -> LoopbackPeer {
        var configuration = PeerConfiguration()
        change(&configuration)
        var logger = Logger(label: "decaf.peer.test")
        logger.logLevel = .critical
        let server = try await PeerServer.start(configuration: configuration, port: 0, logger: logger, threads: 1, clock: { now })
        return LoopbackPeer(server: server)
    }

    func client() async throws -> WireClient {
        try await WireClient.connect(host: "127.0.0.1", port: server.localAddress.port!)
    }

    func stop() async throws { try await server.shutdown() }

    /// Runs `body` with a fresh peer and shuts it down afterwards, whatever happens.
    static func with<R>(_ change: (inout PeerConfiguration) -> Void = { _ in }, _ body: (LoopbackPeer) async throws -> R) async throws -> R {
        let peer = try await start(change)
        do {
            let result = try await body(peer)
            try await peer.stop()
            return result
        } catch {
            try? await peer.stop()
            throw error
        }
    }
}

/// Frames a test client sends.
enum ClientFrames {
    static let session = SessionID(rawValue: 0x444C)

    static func header(_ type: MessageType, _ counter: UInt32, category: SequenceCategory? = nil, timestamp: UInt32 = LoopbackPeer.now) -> FrameHeader {
        let category = category ?? (type == .heartbeat ? .heartbeat : type == .control ? .control : .normal)
        return FrameHeader(messageType: type, sequence: SequenceNumber(category: category, counter: counter), timestamp: timestamp, sessionID: session)
    }

    static func frame(_ type: MessageType, _ counter: UInt32, fields: [TLVField] = []) -> OutgoingFrame {
        OutgoingFrame(header: header(type, counter), fields: fields)
    }

    static func versionRequest(_ major: UInt8 = 1, _ minor: UInt8 = 0, _ features: FeatureFlags = .known, counter: UInt32 = 1) -> OutgoingFrame {
        frame(.control, counter, fields: [VersionRequest(version: ProtocolVersion(major: major, minor: minor), features: features).field])
    }

    static func data(_ counter: UInt32, _ text: String = "hello") -> OutgoingFrame {
        frame(.data, counter, fields: [TLVField(tag: .text, text: text)])
    }

    /// A heartbeat whose ACK marks that everything sent before it has been answered.
    static func sentinel(_ counter: UInt32 = 999) -> OutgoingFrame { frame(.heartbeat, counter) }
}

extension WireClient {
    /// The frames received before the ACK of `sentinel`, which is consumed.
    func framesBefore(sentinel: OutgoingFrame, timeout: Duration = .seconds(5)) async throws -> [Frame] {
        try await send(sentinel)
        var frames: [Frame] = []
        while let event = await next(timeout: timeout) {
            guard case let .frame(frame) = event else { throw LoopbackError.unexpected(event) }
            if frame.header.messageType == .ack && frame.header.sequence == sentinel.header.sequence { return frames }
            frames.append(frame)
        }
        throw LoopbackError.timeout
    }
}

extension TLVValue {
    /// The code of an ERROR TLV, if this is one.
    var errorCode: UInt16? {
        if case let .error(report) = self { return report.code }
        return nil
    }
}

enum LoopbackError: Error {
    case unexpected(WireEvent)
    case timeout
}
