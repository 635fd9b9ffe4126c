import DecafFuzz
import DecafWire
import Testing

/// Findings come back small: the fewest frames, the smallest tree, the fewest bytes that still fire.
@Suite("Minimizer")
struct MinimizerTests {
    @Test("ddmin finds the one element that matters, and the pair that must stay together")
    func deltaDebugging() async {
        let input = Array(0..<100)
        #expect(await Minimizer.minimize(input) { $0.contains(37) } == [37])
        #expect(await Minimizer.minimize(input) { $0.contains(3) && $0.contains(90) } == [3, 90])
        #expect(await Minimizer.minimize(input) { _ in true } == [])
    }

    /// A frame that a planted fault chokes on: a TEXT field left empty four containers deep, behind
    /// a valid checksum, among other fields.
    static var deepFrame: [UInt8] {
        let deep = TLVField.container([.container([.container([.container([TLVField(tag: .text, bytes: []), TLVField(tag: .image, bytes: [1, 2, 3])])])])])
        let fields = [TLVField(tag: .text, text: "hello"), deep, TLVField(tag: .custom, bytes: Array(repeating: 9, count: 40))]
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 1_700_000_000, sessionID: SessionID(rawValue: 2), bodyLength: 0, checksum: 0)
        return FrameRepair.repaired(header.bytes + TLVEncoder.encode(fields))
    }

    static func firesOnDeepEmptyText(_ frame: [UInt8]) -> Bool {
        guard DecodeOutcome(of: frame, options: DecodeOptions(tlv: TLVOptions(depthLimit: 8))).isAccepted,
              let fields = try? TLVDecoder(options: TLVOptions(depthLimit: 8)).decode(frame[FrameHeader.size...]) else { return false }
        func emptyText(_ fields: [TLVField], depth: Int) -> Bool {
            fields.contains { field in
                switch field.content {
                case let .bytes(value): field.tag == .text && value.isEmpty && depth >= 5
                case let .fields(children): emptyText(children, depth: depth + 1)
                }
            }
        }
        return emptyText(fields, depth: 1)
    }

    @Test("a frame shrinks to the fault's core, and still decodes behind a valid checksum")
    func frameTree() async {
        #expect(Self.firesOnDeepEmptyText(Self.deepFrame))
        let noise = FrameRepair.repaired(FrameHeader(messageType: .heartbeat, sequence: SequenceNumber(rawValue: 0x0100_0001), timestamp: 1, sessionID: SessionID(rawValue: 2), bodyLength: 0, checksum: 0).bytes)
        let minimized = await Minimizer.minimizeFrames([noise, Self.deepFrame, noise]) { frames in
            frames.contains(where: Self.firesOnDeepEmptyText)
        }
        #expect(minimized.count == 1)
        let frame = minimized[0]
        #expect(Self.firesOnDeepEmptyText(frame))
        // Four containers of one field each around one empty TEXT: 4 x 6 + 6 bytes of body.
        #expect(frame.count == FrameHeader.size + 5 * TLVEncoder.fieldHeaderSize)
        #expect(FrameRepair.repaired(frame) == frame)
    }
}
