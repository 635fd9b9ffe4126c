import DecafDissect
import DecafMonitor

/// The capture monitor for a capture that arrives as it is made (`tcpdump -U -w - | decaf
/// monitor -`): each connection's failures are printed as the connection ends, before the report
/// at the end of the input. Off, it is the monitor alone.
struct PrintingMonitor: CaptureSink {
    private(set) var monitor: CaptureMonitor
    private let isPrinting: Bool
    /// Failures of `monitor` already printed.
    private var printed = 0

    init(_ monitor: CaptureMonitor, printing: Bool) {
        self.monitor = monitor
        isPrinting = printing
    }

    mutating func frame(_ frame: CapturedFrameView) {
        monitor.frame(frame)
    }

    mutating func note(_ event: CaptureEvent) {
        monitor.note(event)
        guard isPrinting, case let .connectionClosed(connection) = event, monitor.failures.count > printed else { return }
        let lines = monitor.failures[printed...].map { MonitorReport.line(for: $0, in: connection) }
        printed = monitor.failures.count
        FileHandleOutput.standardOutput.write(lines.joined(separator: "\n") + "\n")
    }
}
