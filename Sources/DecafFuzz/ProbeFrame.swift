import DecafWire

/// The plain frame a campaign first asks its testee about: a DATA frame with one TEXT field, valid
/// under any limits. A testee that cannot answer it (it exits, hangs, prints what is not its
/// protocol, never connects) cannot be fuzzed, and the campaign ends in one line.
enum ProbeFrame {
    static let bytes: [UInt8] = {
        var encoder = FrameEncoder()
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: 1), timestamp: 1_700_000_000,
                                 sessionID: SessionID(rawValue: 1))
        return encoder.encode(header, fields: [TLVField(tag: .text, text: "probe")])
    }()
}
