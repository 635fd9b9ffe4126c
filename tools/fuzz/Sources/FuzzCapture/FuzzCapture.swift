import DecafCapture
import DecafDissect

/// libFuzzer entry: the first byte picks a chunk size, whether a port is given and an output (the
/// summary for five of eight values, the tree with the hexdump, JSON, or statistics as text or
/// JSON), the rest is a capture file. Reader, TCP reassembly, capture dissection, statistics and
/// the reports must survive any file; nothing follows a capture error, and frames are numbered in
/// order. One output per input, mostly the cheap summary (the record renderers have their own
/// target, FuzzDissector), keeps each run short; the control byte's mutations reach all of them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapture(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    let file = Array(input.dropFirst())
    let chunk = [1, 7, 64, 4096][Int(control & 0x03)]
    let output = max(0, Int(control >> 3 & 0x07) - 4)
    var dissector = CaptureDissector(port: control & 0x04 != 0 ? 7447 : nil)
    let json = control & 0x40 != 0
    var statistics: CaptureStatistics? = output == 3 ? CaptureStatistics(keepsEachRoundTrip: json) : nil
    var events: [CaptureEvent] = []
    var offset = 0
    while offset < file.count {
        events += dissector.append(file[offset..<min(file.count, offset + chunk)])
        offset += chunk
    }
    events += dissector.finish()
    let report = [CaptureReport(style: .summary), CaptureReport(style: .tree, hexdump: true), CaptureReport(style: .json), nil][output]
    var frames = 0
    for (index, event) in events.enumerated() {
        statistics?.add(event)
        _ = report?.lines(for: event)
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
    if let statistics {
        _ = json ? [CaptureStatisticsRenderer.json(for: statistics, of: dissector)] : CaptureStatisticsRenderer.lines(for: statistics, of: dissector)
    }
    return 0
}
