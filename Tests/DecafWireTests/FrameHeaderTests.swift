import DecafTestSupport
import DecafWire
import Testing

@Suite("Frame header")
struct FrameHeaderTests {
    @Test("every field sits at the brief's offset, big-endian")
    func layout() {
        let header = FrameHeader(
            messageType: MessageType(rawValue: 0x0102),
            sequence: SequenceNumber(rawValue: 0x0304_0506),
            timestamp: 0x0708_090A,
            sessionID: SessionID(rawValue: 0x0D0E),
            version: ProtocolVersion(major: 0x11, minor: 0x12),
            encryptType: EncryptType(rawValue: 0x0B),
            compressType: CompressType(rawValue: 0x0C),
            bodyLength: 0x1314_1516,
            checksum: 0x1718_191A
        )
        #expect(header.bytes == [0xDE, 0xCA, 0xFB, 0xAD, 0x11, 0x12, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A])
    }

    @Test("random headers survive encode and decode")
    func roundTrip() {
        var random = SeededGenerator(seed: 0x4EAD)
        for _ in 0..<2000 {
            let bytes = random.bytes(FrameHeader.size)
            let header = FrameHeader(decoding: bytes)!
            #expect(header.bytes == bytes)
            #expect(FrameHeader(decoding: header.bytes) == header)
        }
    }

    @Test("fewer than 28 bytes are not a header")
    func short() {
        #expect(FrameHeader(decoding: [UInt8](repeating: 0, count: 27)) == nil)
    }

    @Test("header checks run in the brief's order and only on fields that have arrived")
    func prefixChecks() throws {
        var header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 0, sessionID: SessionID(rawValue: 1))
        header.version = ProtocolVersion(major: 2, minor: 0)
        header.bodyLength = 0xFFFF_FFFF
        let bytes = header.bytes
        try bytes.prefix(5).withUnsafeBytes { try HeaderValidator.validate(prefix: $0, options: DecodeOptions()) }
        #expect(throws: WireError(.majorVersionUnsupported(found: header.version, supported: .v1_0), offset: 4)) {
            try bytes.prefix(6).withUnsafeBytes { try HeaderValidator.validate(prefix: $0, options: DecodeOptions()) }
        }
        header.version = .v1_0
        let tooLarge = header.bytes
        try tooLarge.prefix(23).withUnsafeBytes { try HeaderValidator.validate(prefix: $0, options: DecodeOptions()) }
        #expect(throws: WireError(.bodyTooLarge(length: 0xFFFF_FFFF, limit: DecodeOptions.defaultBodyLimit), offset: 20)) {
            try tooLarge.prefix(24).withUnsafeBytes { try HeaderValidator.validate(prefix: $0, options: DecodeOptions()) }
        }
    }

    @Test("a garbage prefix is refused as soon as four bytes have arrived")
    func earlyMagic() {
        #expect(throws: WireError(.badMagic(found: 0x4745_5420), offset: 0)) {
            try Array("GET ".utf8).withUnsafeBytes { try HeaderValidator.validate(prefix: $0, options: DecodeOptions()) }
        }
    }

    @Test("a reader picks up at the first whole magic, or at one the end cuts short, as a byte-by-byte comparison finds it")
    func resynchronizationPoint() {
        let magic = FrameHeader.magicBytes
        // The reference: every index compared with the magic, as far as the bytes go.
        func reference(_ bytes: ArraySlice<UInt8>) -> Int {
            bytes.indices.first { bytes[$0...].prefix(4).elementsEqual(magic.prefix(bytes.endIndex - $0)) } ?? bytes.endIndex
        }
        let cases: [[UInt8]] = [[], magic, [1, 2] + magic, [0xDE, 0xCA, 0] + magic, [0xDE, 0xCA, 0xFB, 0xAC, 0xDE], [7, 0xDE, 0xCA], [0xDE], Array(repeating: 0xDE, count: 9),
                                [0, 0, 0xDE, 0xCA, 0xFB], Array(repeating: 0, count: 100)]
        for bytes in cases {
            for start in 0...min(2, bytes.count) {
                let slice = bytes[start...]
                #expect(FrameHeader.resynchronizationPoint(in: slice) == reference(slice), "\(bytes) from \(start)")
            }
        }
        #expect(FrameHeader.resynchronizationPoint(in: ([0xDE, 0xCA, 0] + magic)[...]) == 3)
        #expect(FrameHeader.resynchronizationPoint(in: [7, 0xDE, 0xCA][...]) == 1, "a magic cut short by the end")
    }
}

@Suite("Sequence numbers (SEQ-1, SEQ-2)")
struct SequenceNumberTests {
    @Test("category in the high 8 bits, counter in the low 24")
    func parts() {
        let sequence = SequenceNumber(category: .control, counter: 0x12_3456)
        #expect(sequence.rawValue == 0x0212_3456)
        #expect(sequence.category == .control)
        #expect(sequence.counter == 0x12_3456)
    }

    @Test("the counter wraps 0xFFFFFF to 0 and keeps the category")
    func wrap() {
        let last = SequenceNumber(category: .media, counter: 0xFF_FFFF)
        #expect(last.next == SequenceNumber(category: .media, counter: 0))
        #expect(SequenceNumber(category: .media, counter: 41).next.counter == 42)
    }

    @Test("categories that fit their message types, and ones that do not")
    func categoryRule() {
        #expect(!SequenceCategory.normal.mismatches(.data))
        #expect(!SequenceCategory.media.mismatches(.data))
        #expect(!SequenceCategory.broadcast.mismatches(.data))
        #expect(!SequenceCategory.heartbeat.mismatches(.heartbeat))
        #expect(!SequenceCategory.control.mismatches(.control))
        #expect(!SequenceCategory.normal.mismatches(.readReceipt))
        #expect(SequenceCategory.normal.mismatches(.heartbeat))
        #expect(SequenceCategory.control.mismatches(.data))
        #expect(SequenceCategory.media.mismatches(.readReceipt))
        #expect(SequenceCategory(rawValue: 9).mismatches(.control))
        for category in 0...255 {
            #expect(!SequenceCategory(rawValue: UInt8(category)).mismatches(.ack), "ACK is exempt")
            #expect(!SequenceCategory(rawValue: UInt8(category)).mismatches(MessageType(rawValue: 77)))
        }
    }
}

@Suite("Session ids (SESSION-1)")
struct SessionIDTests {
    @Test("the brief's example UUID gives 0x444C")
    func briefExample() {
        #expect(SessionID(uuid: "12345678-9abc-def0-1234-56789abcdef0") == SessionID(rawValue: 0x444C))
    }

    @Test("case and dashes do not matter; only the first 32 bits do")
    func normalisation() {
        #expect(SessionID(uuid: "12345678-9ABC-DEF0-1234-56789ABCDEF0")?.rawValue == 0x444C)
        #expect(SessionID(uuid: "123456789abcdef0123456789abcdef0")?.rawValue == 0x444C)
        #expect(SessionID(uuid: "12345678-0000-0000-0000-000000000000")?.rawValue == 0x444C)
    }

    @Test("strings that are not UUIDs give no session id", arguments: [
        "", "1234567", "1234567g-9abc-def0-1234-56789abcdef0", "{12345678-9abc-def0-1234-56789abcdef0}",
        "12345678-9abc-def0-1234-56789abcdef", "12345678-9abc-def0-1234-56789abcdef00",
    ])
    func invalid(uuid: String) {
        #expect(SessionID(uuid: uuid) == nil)
    }
}

@Suite("Version negotiation (HS-2)")
struct VersionNegotiatorTests {
    let server = VersionNegotiator(version: ProtocolVersion(major: 1, minor: 2), features: [.basic, .compression, .readReceipt])

    @Test("same major: the lower minor and the intersection of features")
    func sameMajor() {
        let outcome = server.respond(to: VersionRequest(version: ProtocolVersion(major: 1, minor: 5), features: [.basic, .readReceipt, .groupChat]))
        #expect(outcome == HandshakeOutcome(
            response: VersionResponse(version: ProtocolVersion(major: 1, minor: 2), features: [.basic, .readReceipt]),
            closesConnection: false))
        let older = server.respond(to: VersionRequest(version: ProtocolVersion(major: 1, minor: 0), features: .basic))
        #expect(older.response.version == ProtocolVersion(major: 1, minor: 0))
    }

    @Test("bits the brief does not define are never echoed, even if both sides set them")
    func unknownBits() {
        let server = VersionNegotiator(version: .v1_0, features: FeatureFlags(rawValue: 0xFFFF))
        let outcome = server.respond(to: VersionRequest(version: .v1_0, features: FeatureFlags(rawValue: 0x8421)))
        #expect(outcome.response.features == FeatureFlags(rawValue: 0x0001))
    }

    @Test("different major: the server's own version, no features, and close")
    func otherMajor() {
        let outcome = server.respond(to: VersionRequest(version: ProtocolVersion(major: 2, minor: 0), features: .known))
        #expect(outcome == HandshakeOutcome(response: VersionResponse(version: ProtocolVersion(major: 1, minor: 2), features: []), closesConnection: true))
    }

    @Test("version TLVs encode as u16 version, u16 features and decode back")
    func valueLayout() {
        let request = VersionRequest(version: ProtocolVersion(major: 1, minor: 3), features: [.basic, .groupChat])
        #expect(request.value == [0x01, 0x03, 0x00, 0x11])
        #expect(VersionRequest(value: request.value) == request)
        #expect(VersionRequest(value: [1, 3, 0]) == nil)
        #expect(request.field == TLVField(tag: .versionRequest, bytes: [0x01, 0x03, 0x00, 0x11]))
    }
}

@Suite("acknowledgements")
struct AcknowledgementTests {
    @Test("an ACK echoes sequence and session with an empty body, no flags and checksum 0 (EX-1)")
    func acknowledgement() {
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .media, counter: 9), timestamp: 1, sessionID: SessionID(rawValue: 0xBEEF),
                                 encryptType: .crc32, compressType: .zlib, bodyLength: 40, checksum: 0x1234_5678)
        let ack = header.acknowledgement(timestamp: 7, version: ProtocolVersion(major: 1, minor: 2))
        #expect(ack == FrameHeader(messageType: .ack, sequence: header.sequence, timestamp: 7, sessionID: header.sessionID,
                                   version: ProtocolVersion(major: 1, minor: 2)))
        #expect(ack.bodyLength == 0 && ack.checksum == 0 && ack.encryptType == .none && ack.compressType == .none)
    }

    @Test("DATA, HEARTBEAT, CONTROL and READ_RECEIPT are acknowledged; ACK and undefined types are not (EX-1, EX-2, EX-3)")
    func acknowledgedTypes() {
        #expect((0...6).map { MessageType(rawValue: $0).isAcknowledged } == [true, true, false, true, true, false, false])
    }
}
