import DecafCapture
import DecafDissect

/// libFuzzer entry: the first byte picks a chunk size and whether a port is given, the rest is a
/// capture file. Reader, TCP reassembly, capture dissection, statistics and every report must
/// survive any file; nothing follows a capture error, and frames are numbered in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapture(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    let file = Array(input.dropFirst())
    let chunk = [1, 7, 64, 4096][Int(control & 0x03)]
    var dissector = CaptureDissector(port: control & 0x04 != 0 ? 7447 : nil)
    var statistics = CaptureStatistics()
    var events: [CaptureEvent] = []
    var offset = 0
    while offset < file.count {
        events += dissector.append(Array(file[offset..<min(file.count, offset + chunk)]))
        offset += chunk
    }
    events += dissector.finish()
    let reports = [CaptureReport(style: .summary), CaptureReport(style: .tree, hexdump: true), CaptureReport(style: .json)]
    var frames = 0
    for (index, event) in events.enumerated() {
        statistics.add(event)
        for report in reports { _ = report.lines(for: event) }
        switch event {
        case let .frame(frame):
            frames += 1
            precondition(frame.record.index == frames, "frames are numbered in order")
        case .captureError:
            precondition(index == events.count - 1, "nothing follows a capture error")
        default:
            break
        }
    }
    _ = CaptureStatisticsRenderer.lines(for: statistics, of: dissector)
    _ = CaptureStatisticsRenderer.json(for: statistics, of: dissector)
    return 0
}
