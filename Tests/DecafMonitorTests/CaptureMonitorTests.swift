import DecafCapture
import DecafDissect
@testable import DecafMonitor
import DecafWire
import Testing

/// Whether receivers take a frame, as the capture monitor decides it from the frame's bytes.
@Suite("capture monitor")
struct CaptureMonitorTests {
    /// The acceptance of a zlib DATA frame whose body inflates to `payload`, as a capture
    /// dissector with a 16 KiB body limit hands it over, asked of receivers up to `widest` (kept
    /// small: the test runs beside others, and inflating the real 40 MiB starves them).
    static func acceptance(ofZlib payload: [UInt8], widest: Int = 64 << 10) throws -> MonitoredFrame.Acceptance {
        var encoder = FrameEncoder()
        var bytes: [UInt8] = []
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 1_700_000_000, sessionID: SessionID(rawValue: 1),
                                 compressType: .zlib)
        encoder.append(header, payload: payload, to: &bytes)
        var acceptance: MonitoredFrame.Acceptance?
        var options = CaptureMonitor.decodeOptions
        options.bodyLimit = 16 << 10
        for event in StreamCapture.events(of: bytes, options: options) {
            if case let .frame(frame) = event { acceptance = frame.record.withParts { CaptureMonitor.acceptance(of: $0, widestBody: widest) } }
        }
        return try #require(acceptance)
    }

    @Test("a body that inflates past what the monitor inflates is one some receiver may take; one that ends in a broken field under every limit is none's (TLV-1)")
    func bombs() throws {
        // 65 KiB of zeros: past the reader's limit and what the monitor inflates; a receiver may allow it.
        #expect(try Self.acceptance(ofZlib: [UInt8](repeating: 0, count: (64 << 10) + 1024)) == .byReceiversChoice)
        // 30 KiB of zeros plus three bytes: past the reader's limit, and under any limit its
        // last field is cut short.
        let cut = try Self.acceptance(ofZlib: [UInt8](repeating: 0, count: 30 << 10) + [0x10, 0x01, 0x00])
        guard case let .byNoReceiver(error) = cut else {
            Issue.record("expected no receiver to take it, got \(cut)")
            return
        }
        #expect(error.requirement == .tlv1)
    }
}
