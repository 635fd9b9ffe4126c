import DecafWire

/// libFuzzer entry: the first byte picks the TLV options, the rest is a body. Any body accepted
/// must be walked completely by the lenient view and re-encode byte-exact; any body refused must
/// be refused at an offset inside it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLV(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    let body = Array(input.dropFirst())
    let options = TLVOptions(depthLimit: Int(control & 0x0F), allowsDuplicateTags: control & 0x10 != 0)
    do {
        let fields = try TLVDecoder(options: options).decode(body)
        precondition(TLVEncoder.encode(fields) == body, "an accepted body does not re-encode to its bytes")
        precondition(fields.reduce(0) { $0 + $1.encodedLength } == body.count, "the view did not cover the body")
        for field in fields { _ = TLVValue(tag: field.tag, value: field.bytes ?? []) }
    } catch {
        precondition(error.offset >= 0 && error.offset < max(body.count, 1), "error offset outside the body")
        _ = error.description
    }
    return 0
}
