import DecafJSON
import DecafVectors
import DecafWire

/// Judges a testee's answer to a codec case against its vector.
struct CodecJudge {
    let codecCase: CodecCase

    func judge(_ response: TesteeMessage.Response) -> Verdict {
        let vector = codecCase.vector
        let requirements = vector.requirements
        if response.result == "skipped" {
            return Verdict(.unsupported, "the testee skipped the case: \(response.reason ?? "no reason given")", requirements: requirements)
        }
        if case let .encode(frame) = codecCase.task { return judgeEncoding(response, of: frame) }
        switch (response.result, vector.expectation) {
        case let ("frame", .valid(frame)):
            return judgeFrame(response, against: frame)
        case let ("frame", .acceptable(frame, _)):
            return judgeFrame(response, against: frame, accepting: "the testee accepted a frame the spec lets a receiver accept or refuse, and decoded it exactly")
        case let ("frame", .invalid(refusal)):
            return Verdict(.fail, "the testee accepted a frame it must refuse", expected: refusal.description, actual: "a frame", requirements: requirements)
        case ("error", .valid):
            return Verdict(.fail, "the testee refused a valid frame", expected: "the frame",
                           actual: "\(response.error ?? "?") at offset \(response.offset ?? -1)", requirements: requirements)
        case let ("error", .invalid(refusal)), let ("error", .acceptable(_, refusal)):
            let actual = "\(response.error ?? "?") at offset \(response.offset.map(String.init) ?? "?")"
            guard response.error == refusal.error.name else {
                return Verdict(.fail, "the testee reported another error than the spec's order of checks gives", expected: refusal.description, actual: actual, requirements: requirements)
            }
            guard response.offset == refusal.offset else {
                return Verdict(.fail, "the testee reported the right error at the wrong offset (section 8 gives the offsets)", expected: refusal.description, actual: actual, requirements: requirements)
            }
            return Verdict(.pass, "the testee refused the frame with \(actual), the error and offset the spec's order of checks gives", requirements: requirements)
        default:
            return Verdict(.fail, "the testee answered '\(response.result)', which the protocol does not define for a decode request",
                           expected: "frame, error or skipped", actual: response.result, requirements: requirements)
        }
    }

    private func judgeFrame(_ response: TesteeMessage.Response, against expected: ExpectedFrame,
                            accepting passing: String = "the testee decoded the frame exactly") -> Verdict {
        let requirements = codecCase.vector.requirements
        guard let header = response.header, header.frameHeader == expected.header, header.sequenceCategory == expected.header.sequence.category.rawValue,
              header.sequenceCounter == expected.header.sequence.counter else {
            return Verdict(.fail, "the decoded header differs from the vector's", expected: JSONLine.encode(FrameHeaderJSON(expected.header)),
                           actual: response.header.map(JSONLine.encode) ?? "no header", requirements: requirements)
        }
        guard response.payload.flatMap(Hex.bytes) == expected.payload else {
            return Verdict(.fail, "the decoded payload differs from the vector's", expected: Hex.string(expected.payload), actual: response.payload ?? "none",
                           requirements: requirements)
        }
        return Verdict(.pass, passing + ": the header's fields and the \(expected.payload.count)-byte payload", requirements: requirements)
    }

    private func judgeEncoding(_ response: TesteeMessage.Response, of expected: ExpectedFrame) -> Verdict {
        let vector = codecCase.vector
        let requirements = vector.requirements
        guard response.result == "bytes", let bytes = response.hex.flatMap(Hex.bytes) else {
            return Verdict(.fail, "the testee gave no bytes for an encode request", expected: "bytes", actual: response.result, requirements: requirements)
        }
        if expected.header.compressType == .none {
            if bytes == vector.bytes { return Verdict(.pass, "the testee encoded the frame byte for byte: the vector's \(bytes.count) bytes", requirements: requirements) }
            return Verdict(.fail, "the encoded frame differs from the vector's bytes", expected: Hex.string(vector.bytes), actual: Hex.string(bytes),
                           requirements: requirements + [.crc1])
        }
        var decoder = FrameDecoder(options: codecCase.options)
        decoder.append(bytes)
        do {
            guard let frame = try decoder.nextFrame() else {
                return Verdict(.fail, "the encoded bytes are not a whole frame", expected: "one frame", actual: Hex.string(bytes), requirements: requirements + [.frame3])
            }
            var header = frame.header
            header.bodyLength = expected.header.bodyLength
            header.checksum = expected.header.checksum
            guard header == expected.header, Array(frame.payload) == expected.payload else {
                return Verdict(.fail, "the encoded frame decodes to other fields or another payload", expected: Hex.string(expected.payload),
                               actual: Hex.string(frame.payload), requirements: requirements)
            }
            return Verdict(.pass, "the testee's zlib frame (\(bytes.count) bytes) decodes to the vector's header and \(expected.payload.count)-byte payload",
                           requirements: requirements)
        } catch {
            return Verdict(.fail, "the encoded frame breaks the protocol: \(error)", expected: "a valid frame", actual: error.description,
                           requirements: requirements + [error.requirement])
        }
    }
}
