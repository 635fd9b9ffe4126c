import DecafCapture
import DecafDissect
import DecafMonitor
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras

/// `decaf proxy --monitor`: the traffic the proxy carries, judged as it passes. It takes the pcap
/// records the proxy would write to a file (both legs of every connection), reads them as a
/// capture, and plays them through `decaf monitor`'s rules: the client of each connection to the
/// proxy and the server of each upstream connection, what the proxy's toxics do being the
/// network's. Records come from every connection's event loop; one lock keeps them in order.
/// Memory is the monitor's: bounded per open connection.
public final class LiveMonitor: Sendable {
    /// The dissector and the monitor, touched only under the lock: `@unchecked` because the
    /// dissector's connection states are classes it shares with no one.
    private struct State: @unchecked Sendable {
        var dissector = CaptureDissector(options: CaptureMonitor.decodeOptions)
        var monitor: CaptureMonitor
        var finished = false
    }

    private let state: NIOLockedValueBox<State>
    /// The port the proxy listens on: its client legs are the connections to it.
    private let port = NIOLockedValueBox<UInt16>(0)

    public init() {
        let port = port
        var state = State(monitor: CaptureMonitor(proxyClientLegs: { connection in port.withLockedValue { $0 == connection.server.port } }))
        NIOWritePCAPHandler.pcapFileHeader.withUnsafeReadableBytes { state.dissector.append($0, to: &state.monitor) }
        self.state = NIOLockedValueBox(state)
    }

    /// Says where the proxy listens, once it does (before any client can connect).
    public func listening(on port: UInt16) {
        self.port.withLockedValue { $0 = port }
    }

    /// Takes one pcap record, as `NIOWritePCAPHandler` hands it to a file.
    @Sendable public func record(_ buffer: ByteBuffer) {
        state.withLockedValue { state in
            guard !state.finished else { return }
            buffer.withUnsafeReadableBytes { state.dissector.append($0, to: &state.monitor) }
        }
    }

    /// Ends every connection still open and gives the report; records after it are ignored.
    public func finish() -> MonitorReport {
        state.withLockedValue { state in
            if !state.finished {
                state.finished = true
                state.dissector.finish(to: &state.monitor)
            }
            return MonitorReport(state.monitor)
        }
    }
}
