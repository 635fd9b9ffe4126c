import DecafCapture
import DecafDissect
import DecafWire

/// A whole capture dissected in one go, split into what the tests look at.
struct CaptureDissection {
    var events: [CaptureEvent] = []
    var ignoredConnections = 0
    var truncatedPackets = 0

    init(_ bytes: [UInt8], port: UInt16? = nil, chunkSize: Int = 4096) {
        var dissector = CaptureDissector(port: port)
        var offset = 0
        while offset < bytes.count {
            events += dissector.append(bytes[offset..<min(bytes.count, offset + chunkSize)])
            offset += chunkSize
        }
        events += dissector.finish()
        ignoredConnections = dissector.ignoredConnections
        truncatedPackets = dissector.tracker.truncatedPackets
    }

    var frames: [CapturedFrame] {
        events.compactMap { if case let .frame(frame) = $0 { frame } else { nil } }
    }

    var captureErrors: [CaptureError] {
        events.compactMap { if case let .captureError(error) = $0 { error } else { nil } }
    }

    var gaps: [Int] {
        events.compactMap { if case let .gap(_, _, count, _, _, _) = $0 { count } else { nil } }
    }

    /// The frames' bytes and directions, in order.
    var wire: [[UInt8]] { frames.map(\.record.bytes) }
}
