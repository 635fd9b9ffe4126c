import DecafWire
import Foundation

/// Which bytes of a frame record belong to which field: header fields, then the body's TLV fields
/// (in the decompressed body when the frame is compressed), then anything left unexplained.
public enum FrameLayout {
    public static func spans(of record: FrameRecord) -> [FieldSpan] {
        if record.error?.code == .badMagic {
            return [FieldSpan(.frame, 0..<record.bytes.count, "not a frame (no magic)")]
        }
        var spans = headerSpans(of: record)
        guard let header = record.header else { return spans }
        let bodyEnd = min(record.bytes.count, FrameHeader.size + Int(header.bodyLength))
        let bodyRange = FrameHeader.size..<bodyEnd
        if record.isOpaque || record.isCompressed || record.payload == nil {
            if !bodyRange.isEmpty {
                let what = record.isOpaque ? "encrypted body (opaque)" : record.isCompressed ? "zlib body" : "body"
                spans.append(FieldSpan(.frame, bodyRange, "\(what), \(bodyRange.count) bytes"))
            }
            if record.isCompressed, let payload = record.payload {
                spans += tlvSpans(record, TLVSequence(payload), region: .decompressedBody, base: 0, end: payload.count, depth: 0)
            }
        } else if let payload = record.payload {
            spans += tlvSpans(record, TLVSequence(payload), region: .frame, base: FrameHeader.size, end: payload.count, depth: 0)
        }
        if bodyEnd < record.bytes.count {
            spans.append(FieldSpan(.frame, bodyEnd..<record.bytes.count, "bytes after the frame"))
        }
        return spans
    }

    /// The header fields that arrived, each labelled with its decoded value.
    static func headerSpans(of record: FrameRecord) -> [FieldSpan] {
        let bytes = record.bytes
        var spans: [FieldSpan] = []
        for field in FrameHeader.Field.allCases where field.range.upperBound <= bytes.count {
            spans.append(FieldSpan(.frame, field.range, "\(field.name) \(value(of: field, in: bytes, record: record))"))
        }
        let complete = spans.last?.range.upperBound ?? 0
        if complete < min(bytes.count, FrameHeader.size) {
            spans.append(FieldSpan(.frame, complete..<min(bytes.count, FrameHeader.size), "incomplete header field"))
        }
        return spans
    }

    private static func value(of field: FrameHeader.Field, in bytes: [UInt8], record: FrameRecord) -> String {
        let raw = field.value(in: bytes)
        switch field {
        case .magic: return Hex.word(raw) + (raw == FrameHeader.magic ? "" : " (bad)")
        case .versionMajor, .versionMinor: return "\(raw)"
        case .messageType: return MessageType(rawValue: UInt16(raw)).description
        case .sequence: return SequenceNumber(rawValue: raw).description
        case .timestamp: return UTCTime.iso8601(raw)
        case .encryptType: return EncryptType(rawValue: UInt8(raw)).description
        case .compressType: return CompressType(rawValue: UInt8(raw)).description
        case .sessionID: return Hex.format(raw, width: 4)
        case .bodyLength: return "\(raw)"
        case .checksum:
            guard let computed = record.computedChecksum else { return Hex.word(raw) }
            return Hex.word(raw) + (computed == raw ? " correct" : " mismatch")
        }
    }

    private static func tlvSpans(
        _ record: FrameRecord, _ fields: TLVSequence, region: FieldSpan.Region, base: Int, end: Int, depth: Int
    ) -> [FieldSpan] {
        var spans: [FieldSpan] = []
        var parsedEnd = fields.baseOffset
        for element in record.visible(fields) {
            let start = base + element.offset
            let valueStart = start + TLVEncoder.fieldHeaderSize
            let name = element.tag.label
            spans.append(FieldSpan(region, start..<valueStart, "\(name) tag, length \(element.value.count)", depth: depth))
            if element.isContainer {
                let valueEnd = element.offset + TLVEncoder.fieldHeaderSize + element.value.count
                spans += tlvSpans(record, element.children, region: region, base: base, end: valueEnd, depth: depth + 1)
            } else if !element.value.isEmpty {
                spans.append(FieldSpan(region, valueStart..<(valueStart + element.value.count), "\(name) value", depth: depth))
            }
            parsedEnd = element.offset + TLVEncoder.fieldHeaderSize + element.value.count
        }
        if parsedEnd < end {
            let what = record.error == nil ? "unparsed bytes" : "bytes after the error, not parsed"
            spans.append(FieldSpan(region, (base + parsedEnd)..<(base + end), what, depth: depth))
        }
        return spans
    }
}
