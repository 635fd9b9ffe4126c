import DecafDiagnosis
import DecafJSON
import DecafWire

/// A mistaken codec (`CodecModel`) as a testee of the testee protocol (`Specs/conform-testee.md`):
/// its answer to a request, as `decaf testee decoder --mistake` gives it and the diagnosis judges it.
extension CodecModel {
    /// The answer to `request`.
    public func answer(_ request: TesteeMessage.Request) -> TesteeMessage.Response {
        switch request.op {
        case .decode:
            let bytes = request.hex.flatMap(Hex.bytes) ?? []
            return response(decode(bytes, options: request.options?.decodeOptions ?? DecodeOptions()))
        case .encode:
            guard let header = request.header?.frameHeader, let payload = request.payload.flatMap(Hex.bytes) else {
                return TesteeMessage.Response(result: "skipped", reason: "an encode request needs a header and a payload")
            }
            return encoded(header, payload: payload)
        }
    }

    /// The answer to `codecCase`'s request: what `answer(_:)` gives the request, without the
    /// round trip of its bytes through hex (the diagnosis asks tens of thousands a run).
    func answer(to codecCase: CodecCase) -> TesteeMessage.Response {
        switch codecCase.task {
        case .decode:
            let options = TesteeMessage.request(options: codecCase.options).decodeOptions
            return response(decode(codecCase.vector.bytes, options: options))
        case let .encode(frame):
            return encoded(frame.header, payload: frame.payload)
        }
    }

    /// The answer to an encode request: the bytes this codec writes for the frame.
    private func encoded(_ header: FrameHeader, payload: [UInt8]) -> TesteeMessage.Response {
        TesteeMessage.Response(result: "bytes", hex: Hex.string(encode(header, payload: payload)))
    }

    /// The testee protocol's answer for `decoded`, as this codec reports a header.
    public func response(_ decoded: Decoded) -> TesteeMessage.Response {
        switch decoded {
        case let .frame(frame):
            var header = FrameHeaderJSON(frame.header)
            if mistakes.contains(.sequenceNotSplit) {
                header.sequenceCategory = 0
                header.sequenceCounter = header.sequence
            }
            return TesteeMessage.Response(result: "frame", header: header, payload: Hex.string(frame.payload))
        case let .error(error):
            return TesteeMessage.Response(result: "error", error: error.code.name, offset: error.offset)
        }
    }
}
