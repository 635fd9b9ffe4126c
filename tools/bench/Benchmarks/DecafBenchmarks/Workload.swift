import DecafWire

/// A stream of frames to decode, built once, and the name it is reported under.
struct Workload: Sendable {
    let name: String
    let stream: [UInt8]
    let frames: Int

    /// `count` DATA frames whose bodies are `bodySize` bytes of TLV fields.
    init(_ label: String, bodySize: Int, count: Int) {
        var encoder = FrameEncoder()
        var stream: [UInt8] = []
        for index in 0..<count {
            let header = FrameHeader(
                messageType: .data, sequence: SequenceNumber(category: .normal, counter: UInt32(index)),
                timestamp: 1_700_000_000 + UInt32(index), sessionID: SessionID(rawValue: 0x444C)
            )
            encoder.append(header, payload: Workload.body(size: bodySize, seed: index), to: &stream)
        }
        self.stream = stream
        frames = count
        name = "\(label) (\(count) frames, \(stream.count) B)"
    }

    /// A body of exactly `size` bytes: a TEXT field, and for larger bodies an IMAGE and a
    /// container holding a LOCATION, as a chat client sends.
    static func body(size: Int, seed: Int) -> [UInt8] {
        if size < 64 {
            return TLVEncoder.encode([TLVField(tag: .text, bytes: ChatText.bytes(size - 6, seed: seed))])
        }
        let location = TLVField.container([TLVField(tag: .location, text: "52.5200,13.4050")])
        let text = TLVField(tag: .text, bytes: ChatText.bytes(48, seed: seed))
        let fixed = location.encodedLength + text.encodedLength + 6
        return TLVEncoder.encode([text, TLVField(tag: .image, bytes: ChatText.bytes(size - fixed, seed: seed + 1)), location])
    }

    /// 44-byte frames: a 16-byte body, one TEXT field of 10 bytes.
    static let small = Workload("decode 44-byte frames", bodySize: 16, count: 10_000)
    static let kilobyte = Workload("decode 1 KiB-body frames", bodySize: 1024, count: 2_000)
    static let large = Workload("decode 64 KiB-body frames", bodySize: 65_536, count: 64)
}
