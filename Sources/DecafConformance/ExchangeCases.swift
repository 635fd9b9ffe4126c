import DecafWire

/// Cases of section 7's exchange: ACKs, heartbeats, read receipts, repeats and the idle timeout.
enum ExchangeCases {
    static func cases(for profile: ConformanceProfile) -> [ConformanceCase] {
        let data = CaseFrames.data(1)
        let sequence = data.0.sequence
        var compressed = data.0
        compressed.compressType = .zlib
        var crcFlagged = data.0
        crcFlagged.encryptType = .crc32
        let heartbeats = (1...10).map { (CaseFrames.header(.heartbeat, $0), [TLVField]()) }
        return [
            ConformanceCase("exchange.ack.data", [.ex1], .required, "a DATA frame gets exactly one ACK with its sequence and session",
                            steps: CaseFrames.acked(data.0, data.1)),
            ConformanceCase("exchange.ack.control", [.ex1], .required, "a CONTROL frame without a VERSION_REQUEST gets exactly one ACK",
                            steps: CaseFrames.acked(CaseFrames.header(.control, 7), [TLVField(tag: .userStatus, bytes: Array("online".utf8))])),
            ConformanceCase("exchange.ack.read-receipt", [.ex1], .required, "a READ_RECEIPT frame from the client gets exactly one ACK",
                            steps: CaseFrames.acked(CaseFrames.header(.readReceipt, 3), [ReadReceipt(sequence: SequenceNumber(category: .normal, counter: 9)).field])),
            ConformanceCase("exchange.ack.compressed-data", [.ex1, .zlib1], .required, "a zlib DATA frame's ACK has compress_type 0 and an empty body",
                            steps: CaseFrames.acked(compressed, data.1)),
            ConformanceCase("exchange.ack.crc32-flagged-data", [.ex1, .frame5], .required, "a DATA frame with encrypt_type 1 (CRC32) is acknowledged with encrypt_type 0",
                            steps: CaseFrames.acked(crcFlagged, data.1)),
            ConformanceCase("exchange.ack.empty-data", [.ex1, .zlib3], .required, "a DATA frame with an empty body is acknowledged",
                            steps: CaseFrames.acked(CaseFrames.header(.data, 4))),
            ConformanceCase("exchange.ack.prompt", [.ex1, .ex7], .recommended,
                            "a DATA frame is acknowledged within \(profile.ackDeadline), before a client's retransmission timer fires",
                            steps: [CaseFrames.send(data.0, data.1), .expect(.promptAck(sequence, deadline: profile.ackDeadline))]),
            ConformanceCase("exchange.heartbeat", [.ex2], .required, "a HEARTBEAT is answered by an ACK carrying its sequence",
                            steps: CaseFrames.acked(CaseFrames.header(.heartbeat, 1))),
            ConformanceCase("exchange.heartbeat.ten-coalesced", [.ex2, .frame3], .required, "ten HEARTBEATs in one write get ten ACKs",
                            steps: [CaseFrames.sendTogether(heartbeats)] + heartbeats.map { .expect(.ack($0.0.sequence, session: $0.0.sessionID)) }),
            ConformanceCase("exchange.ack-not-acknowledged", [.ex3], .required, "an ACK frame from the client is not acknowledged",
                            steps: [CaseFrames.send(CaseFrames.header(.ack, 77)), .expect(.noAck(SequenceNumber(category: .normal, counter: 77)))]),
            ConformanceCase("exchange.unknown-type-not-acknowledged", [.ex3, .frame4], .required,
                            "a valid frame of msg_type 9 is not acknowledged and the connection stays open",
                            steps: [CaseFrames.send(CaseFrames.header(MessageType(rawValue: 9), 5), data.1), .expect(.noAck(SequenceNumber(category: .normal, counter: 5)))]),
            ConformanceCase("exchange.read-receipt", [.ex4], .required, "with READ_RECEIPT agreed, a DATA frame gets one READ_RECEIPT carrying its sequence",
                            needs: .readReceipt,
                            steps: CaseFrames.handshake() + CaseFrames.acked(data.0, data.1) + [.expect(.readReceipts(for: sequence, count: 1))]),
            ConformanceCase("exchange.no-read-receipt-unless-agreed", [.ex4], .required, "without READ_RECEIPT agreed, a DATA frame gets no READ_RECEIPT",
                            steps: CaseFrames.handshake(.v1_0, .basic) + CaseFrames.acked(data.0, data.1) + [.expect(.readReceipts(for: sequence, count: 0))]),
            ConformanceCase("replay.repeat-acknowledged-again", [.replay1, .ex1], .required,
                            "a DATA frame sent twice with the same sequence and timestamp is acknowledged both times",
                            steps: CaseFrames.acked(data.0, data.1) + CaseFrames.acked(data.0, data.1)),
            ConformanceCase("replay.repeat-not-delivered-twice", [.replay1, .ex4], .required,
                            "a repeated DATA frame is not delivered again: no second READ_RECEIPT",
                            needs: .readReceipt,
                            steps: CaseFrames.handshake() + CaseFrames.acked(data.0, data.1) + [.expect(.readReceipts(for: sequence, count: 1))]
                                + CaseFrames.acked(data.0, data.1) + [.expect(.readReceipts(for: sequence, count: 1))]),
            ConformanceCase("replay.new-timestamp-is-new-frame", [.replay1, .ex4], .recommended,
                            "the same sequence with another timestamp is a new frame: delivered, with its own READ_RECEIPT",
                            needs: .readReceipt,
                            steps: CaseFrames.handshake() + CaseFrames.acked(data.0, data.1) + [.expect(.readReceipts(for: sequence, count: 1))]
                                + CaseFrames.acked(data.0, data.1, skew: 5) + [.expect(.readReceipts(for: sequence, count: 2))]),
            ConformanceCase("exchange.idle-timeout", [.ex6], .required, "a connection that sends nothing is closed after the idle timeout",
                            steps: [.expect(.idleClose)]),
        ]
    }
}
