import DecafDissect
import DecafWire

/// libFuzzer entry: the first byte picks decode options, the rest is a stream for the dissector,
/// whose records and every renderer (summary, tree, hexdump, error excerpt, JSON) must survive
/// whatever the decoder makes of hostile bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDissector(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    var options = DecodeOptions()
    options.bodyLimit = [64, 4096, 1 << 20, 0][Int(control & 0x03)]
    options.tlv.depthLimit = Int(control >> 2 & 0x07)
    options.tlv.allowsDuplicateTags = control & 0x20 != 0
    let tree = DissectionReport(style: .tree, hexdump: true)
    let summary = DissectionReport(style: .summary)
    let json = DissectionReport(style: .json)
    var frames = 0
    for event in StreamDissector.dissect(Array(input.dropFirst()), options: options) {
        for report in [tree, summary, json] { _ = report.lines(for: event) }
        if case let .frame(record) = event {
            frames += 1
            precondition(record.index == frames, "records are numbered in order")
            precondition(record.isValid || record.error!.frameOffset == record.streamOffset)
        }
    }
    return 0
}
