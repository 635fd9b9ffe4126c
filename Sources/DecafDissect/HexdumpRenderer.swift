import Foundation
import DecafWire

/// A hexdump of a frame in which every line names the field its bytes belong to.
public enum HexdumpRenderer {
    /// Lines shown at the start of a long field; its last line follows a note of what was left out.
    static let leadingLines = 8

    public static func lines(for frame: FrameParts, registry: FieldRegistry = .brief) -> [String] {
        var lines: [String] = []
        var region = FieldRegion.frame
        for span in FrameLayout.spans(of: frame, registry: registry) {
            if span.region != region {
                region = span.region
                lines.append("decompressed body (\(frame.payload?.count ?? 0) bytes):")
            }
            let bytes = span.region == .frame ? frame.bytes : frame.payload ?? UnsafeRawBufferPointer(start: nil, count: 0)
            let base = span.region == .frame ? frame.streamOffset : 0
            let starts = Array(stride(from: span.range.lowerBound, to: span.range.upperBound, by: 16))
            for (line, chunkStart) in starts.enumerated() {
                if starts.count > leadingLines + 2 && line >= leadingLines && line < starts.count - 1 {
                    if line == leadingLines {
                        let omitted = starts[starts.count - 1] - chunkStart
                        lines.append(Padding.spaces(address(0, region: span.region).count + 2) + "… \(omitted) more bytes of this field …")
                    }
                    continue
                }
                let chunk = bytes[chunkStart..<min(chunkStart + 16, span.range.upperBound)]
                var line = address(base + chunkStart, region: span.region) + "  " + Hex.spaced(chunk)
                if chunkStart == span.range.lowerBound {
                    line += Padding.spaces(3 * (16 - chunk.count) + 1 + 2 * span.depth) + span.label
                }
                lines.append(line)
            }
        }
        return lines
    }

    /// A byte's address in hex: `0x` and its stream offset, or `+0x` and its offset in the
    /// decompressed body.
    static func address(_ offset: Int, region: FieldRegion) -> String {
        let hex = String(offset, radix: 16)
        let digits = Padding.repeating("0", 6 - hex.count) + hex
        switch region {
        case .frame: return "0x" + digits
        case .decompressedBody: return "+0x" + digits.dropFirst()
        }
    }
}
