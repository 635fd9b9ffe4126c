import DecafWire
import Testing

@Suite("Error model")
struct WireErrorTests {
    @Test("codes and names follow the brief's table")
    func table() {
        #expect(ErrorCode.allCases.map(\.rawValue) == Array(1...13))
        #expect(ErrorCode.allCases.map(\.name) == [
            "BAD_MAGIC", "VERSION_UNSUPPORTED", "BODY_TOO_LARGE", "CHECKSUM_MISMATCH", "UNSUPPORTED_ENCRYPTION",
            "UNSUPPORTED_COMPRESSION", "DECOMPRESSION_FAILED", "TLV_TRUNCATED", "TLV_LENGTH_OVERFLOW", "TLV_TOO_DEEP",
            "TLV_DUPLICATE_TAG", "TIMESTAMP_OUT_OF_WINDOW", "TRUNCATED_FRAME",
        ])
    }

    @Test("only the TLV errors count their offset from the body (section 8)")
    func offsetOrigin() {
        #expect(ErrorCode.allCases.filter(\.countsOffsetFromBody) == [.tlvTruncated, .tlvLengthOverflow, .tlvTooDeep, .tlvDuplicateTag])
    }

    @Test("a byte-swapped checksum is named as the little-endian defect (CRC-3)")
    func byteSwapped() {
        let swapped = WireError(.checksumMismatch(stored: 0x31DE_4C8A, computed: 0x8A4C_DE31), offset: 24)
        #expect(swapped.isByteSwappedChecksum)
        #expect(swapped.description == "CHECKSUM_MISMATCH (CRC-2) at offset 24: checksum 0x31DE4C8A does not match the body's CRC-32 0x8A4CDE31 (checksum written in little-endian, CRC-3)")
        let wrong = WireError(.checksumMismatch(stored: 1, computed: 0x8A4C_DE31), offset: 24)
        #expect(!wrong.isByteSwappedChecksum)
        #expect(!wrong.message.contains("little-endian"))
    }

    @Test("each fault names its requirement")
    func requirements() {
        #expect(WireError(.badMagic(found: 0), offset: 0).requirement == .frame1)
        #expect(WireError(.minorVersionUnsupported(found: ProtocolVersion(major: 1, minor: 1), supported: .v1_0), offset: 4).requirement == .ver2)
        #expect(WireError(.inflatedBodyTooLarge(limit: 1), offset: 28).requirement == .zlib2)
        #expect(WireError(.bytesAfterZlibStream(count: 1), offset: 28).requirement == .zlib1)
        #expect(WireError(.tlvDuplicateTag(tag: .text, firstOffset: 0), offset: 11).requirement == .tlv3)
        #expect(WireError(.truncatedFrame(received: 3, expected: nil), offset: 0).requirement == .frame3)
    }

    @Test("an ERROR TLV carries the code and the one-line description")
    func errorReport() {
        let error = WireError(.badMagic(found: 0x4745_5420), offset: 0)
        let report = ErrorReport(error)
        #expect(report.code == 1)
        #expect(ErrorReport(value: report.value) == report)
        #expect(report.reason == "BAD_MAGIC (FRAME-1) at offset 0: magic is 0x47455420, expected 0xDECAFBAD")
    }
}
