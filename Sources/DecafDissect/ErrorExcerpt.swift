import DecafWire

/// The lines of a hexdump around the byte an error points at, with carets under the bytes of the
/// offending field.
enum ErrorExcerpt {
    static func lines(for frame: FrameParts, error: WireError) -> [String] {
        guard let (region, range) = location(of: error, in: frame) else { return [] }
        let bytes = region == .frame ? frame.bytes : frame.payload ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let base = region == .frame ? frame.streamOffset : 0
        let firstLine = range.lowerBound / 16 * 16
        let lastLine = (range.upperBound - 1) / 16 * 16
        var lines: [String] = []
        if region == .decompressedBody { lines.append("in the decompressed body:") }
        for lineStart in stride(from: firstLine, through: lastLine, by: 16) {
            let lineBytes = bytes[lineStart..<min(lineStart + 16, bytes.count)]
            lines.append(HexdumpRenderer.address(base + lineStart, region: region) + "  " + Hex.spaced(lineBytes))
            let marked = max(lineStart, range.lowerBound)..<min(lineStart + lineBytes.count, range.upperBound)
            let indent = HexdumpRenderer.address(0, region: region).count + 2 + 3 * (marked.lowerBound - lineStart)
            lines.append(Padding.spaces(indent) + Array(repeating: "^^", count: marked.count).joined(separator: " "))
        }
        return lines
    }

    /// Where in the frame the error's offending bytes are, clipped to what arrived.
    static func location(of error: WireError, in frame: FrameParts) -> (FieldRegion, Range<Int>)? {
        let region: FieldRegion
        var start: Int
        var width: Int
        switch error.code {
        case .truncatedFrame:
            region = .frame
            start = 0
            width = 4
        case .decompressionFailed:
            region = .frame
            start = FrameHeader.size
            width = 2
        case let code where code.countsOffsetFromBody:
            region = frame.isCompressed ? .decompressedBody : .frame
            start = region == .frame ? FrameHeader.size + error.offset : error.offset
            width = TLVEncoder.fieldHeaderSize
        case .versionUnsupported:
            region = .frame
            start = error.offset
            width = 2
        default:
            region = .frame
            start = error.offset
            width = FrameHeader.Field(rawValue: error.offset)?.size ?? 1
        }
        let available = region == .frame ? frame.bytes.count : frame.payload?.count ?? 0
        start = min(start, available)
        width = min(width, available - start)
        guard width > 0 else { return nil }
        return (region, start..<(start + width))
    }
}
