import DecafWire

/// Vectors for sequence categories and counters (SEQ-1, SEQ-2) and session ids (SESSION-1).
enum SequenceVectors {
    static var groups: [VectorGroup] { [sequence, session] }

    static func frame(_ type: MessageType, _ category: SequenceCategory, _ counter: UInt32, _ fields: [TLVField] = []) -> FrameRecipe {
        FrameRecipe.frame(type, fields).with { $0.sequence = SequenceNumber(category: category, counter: counter) }
    }

    static var sequence: VectorGroup {
        let hello = HeaderVectors.hello
        let unknown = SequenceCategory(rawValue: 0xFF)
        return VectorGroup(name: "sequence", comment: "Sequence = category << 24 | counter. A category that does not fit msg_type is a warning, never an error.", tests: [
            .valid(600, "DATA, NORMAL, counter 0", [.seq1], frame(.data, .normal, 0, hello)),
            .valid(601, "DATA, NORMAL, counter 0xFFFFFF, the last before the wrap", [.seq1], flags: [.counterWrap, .boundary],
                   frame(.data, .normal, 0xFF_FFFF, hello)),
            .valid(602, "DATA, MEDIA, counter 0 after a wrap", [.seq1], flags: [.counterWrap], frame(.data, .media, 0, hello)),
            .valid(603, "DATA, BROADCAST", [.seq1, .seq2], frame(.data, .broadcast, 77, hello)),
            .valid(604, "HEARTBEAT, HEARTBEAT category", [.seq1, .seq2], frame(.heartbeat, .heartbeat, 12)),
            .valid(605, "CONTROL, CONTROL category", [.seq1, .seq2], frame(.control, .control, 3)),
            .valid(606, "READ_RECEIPT, NORMAL category", [.seq1, .seq2],
                   frame(.readReceipt, .normal, 5, [ReadReceipt(sequence: SequenceNumber(category: .normal, counter: 4)).field])),
            .valid(607, "ACK carrying a CONTROL frame's sequence is exempt from the category rule", [.seq2], frame(.ack, .control, 3)),
            .valid(608, "ACK carrying a HEARTBEAT's sequence", [.seq2], frame(.ack, .heartbeat, 12)),
            .valid(609, "HEARTBEAT in the NORMAL category: warning only", [.seq2], flags: [.sequenceCategoryMismatch], frame(.heartbeat, .normal, 1)),
            .valid(610, "DATA in the CONTROL category: warning only", [.seq2], flags: [.sequenceCategoryMismatch], frame(.data, .control, 1, hello)),
            .valid(611, "CONTROL in the HEARTBEAT category: warning only", [.seq2], flags: [.sequenceCategoryMismatch], frame(.control, .heartbeat, 1)),
            .valid(612, "READ_RECEIPT in the MEDIA category: warning only", [.seq2], flags: [.sequenceCategoryMismatch],
                   frame(.readReceipt, .media, 1, [ReadReceipt(sequence: SequenceNumber(category: .media, counter: 2)).field])),
            .valid(613, "DATA in the undefined category 0xFF: warning only", [.seq1, .seq2], flags: [.sequenceCategoryMismatch],
                   frame(.data, unknown, 1, hello)),
            .valid(614, "undefined msg_type 9 in category 0x7F: no category is expected", [.seq2, .frame4], flags: [.unknownMessageType],
                   frame(MessageType(rawValue: 9), SequenceCategory(rawValue: 0x7F), 1)),
        ])
    }

    static var session: VectorGroup {
        let hello = HeaderVectors.hello
        func frame(_ session: UInt16) -> FrameRecipe {
            FrameRecipe.data(hello).with { $0.sessionID = SessionID(rawValue: session) }
        }
        return VectorGroup(name: "session", comment: "session_id is any u16; see session-id.json for deriving it from a UUID.", tests: [
            .valid(650, "session 0x444C from the brief's UUID 12345678-9abc-def0-1234-56789abcdef0", [.session1],
                   flags: [.sessionFromUUID], frame(0x444C)),
            .valid(651, "session 0xD3B7 from UUID 6ba7b810-9dad-11d1-80b4-00c04fd430c8", [.session1],
                   flags: [.sessionFromUUID], frame(0xD3B7)),
            .valid(652, "session 0", [.session1], flags: [.boundary], frame(0)),
            .valid(653, "session 0xFFFF", [.session1], flags: [.boundary], frame(0xFFFF)),
        ])
    }
}
