import DecafDissect
import DecafWire

/// libFuzzer entry: the first byte picks decode options and a renderer (summary, tree with the
/// hexdump, tree, JSON), the rest is a stream for the dissector, whose records and every renderer
/// must survive whatever the decoder makes of hostile bytes. One renderer per input keeps each
/// run short; the control byte's mutations reach all of them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDissector(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    var options = DecodeOptions()
    options.bodyLimit = [64, 4096, 1 << 20, 0][Int(control & 0x03)]
    options.tlv.depthLimit = Int(control >> 2 & 0x07)
    options.tlv.allowsDuplicateTags = control & 0x20 != 0
    let report = [
        DissectionReport(style: .tree, hexdump: true), DissectionReport(style: .summary),
        DissectionReport(style: .json), DissectionReport(style: .tree),
    ][Int(control >> 6)]
    var frames = 0
    for event in StreamDissector.dissect(Array(input.dropFirst()), options: options) {
        _ = report.lines(for: event)
        if case let .frame(record) = event {
            frames += 1
            precondition(record.index == frames, "records are numbered in order")
            precondition(record.error.map { $0.frameOffset == record.streamOffset } ?? record.isValid, "an error is reported where its frame starts")
        }
    }
    return 0
}
