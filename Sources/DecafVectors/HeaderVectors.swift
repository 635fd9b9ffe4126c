import DecafWire

/// Vectors for well-formed frames of every type and for the header's magic, msg_type,
/// encrypt_type and compress_type rules (FRAME-1, FRAME-4, FRAME-5, FRAME-6).
enum HeaderVectors {
    static var groups: [VectorGroup] { [basic, magic, messageType, encryption, compression] }

    static let hello = [TLVField(tag: .text, text: "hello")]

    static var basic: VectorGroup {
        let request = VersionRequest(version: .v1_0, features: [.basic, .readReceipt])
        let response = VersionResponse(version: .v1_0, features: [.basic, .readReceipt])
        let receipt = ReadReceipt(sequence: SequenceNumber(category: .normal, counter: 1))
        let error = ErrorReport(code: ErrorCode.checksumMismatch.rawValue, reason: "checksum mismatch")
        let everyTag = TLVTag.known.filter { $0 != .container }.map { tag in
            TLVField(tag: tag, bytes: Array("value of \(tag.name!)".utf8))
        }
        let handwrittenHello = Hex.bytes("decafbad01000000000000016553f1000000444c0000000b8a4cde3110010000000568656c6c6f")!
        let handwrittenHeartbeat = Hex.bytes("decafbad01000001010000076553f1000000444c0000000000000000")!
        let handwrittenRequest = Hex.bytes("decafbad01000003020000016553f1000000444c0000000ac011053400010000000401000009")!
        return VectorGroup(name: "frame-basic", comment: "Well-formed frames of each message type.", tests: [
            .valid(1, "DATA frame with one TEXT field", [.frame3, .crc1, .tlv1], .data(hello)),
            .valid(2, "DATA frame with one TEXT field, every byte written by hand", [.frame1, .frame3, .crc1, .tlv1],
                   flags: [.handwrittenBytes], bytes: handwrittenHello,
                   payload: TLVEncoder.encode(hello), fields: hello),
            .valid(3, "HEARTBEAT with an empty body and checksum 0, written by hand", [.crc1, .seq1],
                   flags: [.handwrittenBytes, .emptyBody], bytes: handwrittenHeartbeat, payload: [], fields: []),
            .valid(4, "CONTROL frame carrying VERSION_REQUEST 1.0 BASIC|READ_RECEIPT, written by hand", [.tlv4, .ver3],
                   flags: [.handwrittenBytes], bytes: handwrittenRequest,
                   payload: TLVEncoder.encode([request.field]), fields: [request.field]),
            .valid(5, "ACK frame: empty body, checksum 0", [.crc1], flags: [.emptyBody], .frame(.ack)),
            .valid(6, "CONTROL frame carrying VERSION_RESPONSE", [.tlv4], .frame(.control, [response.field])),
            .valid(7, "READ_RECEIPT frame carrying the READ_RECEIPT TLV", [.tlv4], .frame(.readReceipt, [receipt.field])),
            .valid(8, "CONTROL frame carrying an ERROR TLV", [.tlv4], .frame(.control, [error.field])),
            .valid(9, "DATA frame with every known non-container tag once", [.tlv1, .tlv4], .data(everyTag)),
            .valid(10, "DATA frame with TEXT, IMAGE and LOCATION", [.tlv1],
                   .data([TLVField(tag: .text, text: "look"), TLVField(tag: .image, bytes: [0x89, 0x50, 0x4E, 0x47]),
                          TLVField(tag: .location, text: "52.52,13.40")])),
            .valid(11, "DATA frame whose TEXT holds multi-byte UTF-8", [.tlv1, .tlv4],
                   .data([TLVField(tag: .text, text: "grüße, 你好, 👋")])),
            .valid(12, "DATA frame with an empty body", [.crc1, .tlv1], flags: [.emptyBody], .data([])),
            .valid(13, "Retransmission of tcId 1: same bytes, same verdict", [.replay1, .frame3],
                   flags: [.retransmission], .data(hello)),
            .valid(14, "DATA frame whose body_length is large (4000 bytes of IMAGE)", [.frame2, .frame3],
                   .data([TLVField(tag: .image, bytes: (0..<3994).map { UInt8(truncatingIfNeeded: $0 &* 31) })])),
        ])
    }

    static var magic: VectorGroup {
        let frame = FrameRecipe.data(hello).bytes
        return VectorGroup(name: "frame-magic", comment: "The magic number (FRAME-1).", tests: [
            .valid(20, "magic 0xDECAFBAD", [.frame1], .data(hello)),
            .invalid(21, "magic off by one in the last byte (0xDECAFBAE)", [.frame1], frame.patching(0, [0xDE, 0xCA, 0xFB, 0xAE]), .badMagic, at: 0),
            .invalid(22, "magic written little-endian (0xADFBCADE)", [.frame1], frame.patching(0, [0xAD, 0xFB, 0xCA, 0xDE]), .badMagic, at: 0),
            .invalid(23, "magic all zero", [.frame1], frame.patching(0, [0, 0, 0, 0]), .badMagic, at: 0),
            .invalid(24, "magic all ones", [.frame1], frame.patching(0, [0xFF, 0xFF, 0xFF, 0xFF]), .badMagic, at: 0),
            .invalid(25, "an HTTP request instead of a frame", [.frame1],
                     Array("GET / HTTP/1.1\r\nHost: decaf\r\n\r\n".utf8), .badMagic, at: 0),
            .invalid(26, "a JSON message instead of a frame", [.frame1],
                     Array("{\"type\":\"text\",\"body\":\"hello there\"}".utf8), .badMagic, at: 0),
            .invalid(27, "bad magic beats every later header error", [.frame1, .ver1, .frame2, .frame5, .frame6], flags: [.errorOrder],
                     frame.patching(0, [0xCA, 0xFE, 0xBA, 0xBE, 9, 9]).settingUInt32(at: 20, 0xFFFF_FFFF).patching(16, [7, 7]),
                     .badMagic, at: 0),
            .invalid(28, "header-only stream with a bad magic: rejected from the header alone", [.frame1, .frame3],
                     flags: [.headerOnly], frame.patching(0, [0xBA, 0xDD, 0xCA, 0xFE]).keeping(28), .badMagic, at: 0),
        ])
    }

    static var messageType: VectorGroup {
        let bad = FrameRecipe.frame(MessageType(rawValue: 5), hello).with { $0.sequence = SequenceNumber(category: .normal, counter: 9) }
        return VectorGroup(name: "frame-message-type", comment: "msg_type values outside 0-4 are checked, skipped and never fatal (FRAME-4).", tests: [
            .valid(40, "msg_type 5 with a TEXT body", [.frame4], flags: [.unknownMessageType], .frame(MessageType(rawValue: 5), hello)),
            .valid(41, "msg_type 0xFFFF with an empty body", [.frame4], flags: [.unknownMessageType, .emptyBody], .frame(MessageType(rawValue: 0xFFFF))),
            .valid(42, "msg_type 0x0100 with a container", [.frame4, .tlv2], flags: [.unknownMessageType, .nesting],
                   .frame(MessageType(rawValue: 0x0100), [.container(hello)])),
            .invalid(43, "msg_type 5 whose checksum is wrong is still fatal", [.frame4, .crc2], flags: [.unknownMessageType],
                     bad.bytes.settingChecksum(0x1234_5678), .checksumMismatch, at: 24),
            .invalid(44, "msg_type 5 whose body is not a TLV sequence is still fatal", [.frame4, .tlv1], flags: [.unknownMessageType],
                     FrameRecipe.frame(MessageType(rawValue: 5)).bytes.appendingToBody([0x10, 0x01, 0x00]), .tlvTruncated, at: 0),
            .invalid(45, "msg_type 6 with a bad zlib body is still fatal", [.frame4, .zlib1], flags: [.unknownMessageType],
                     FrameRecipe.frame(MessageType(rawValue: 6)).with { $0.compressType = .zlib }.bytes.appendingToBody([0x78, 0x9C, 0xFF, 0xFF]),
                     .decompressionFailed, at: 28),
        ])
    }

    static var encryption: VectorGroup {
        let frame = FrameRecipe.data(hello)
        return VectorGroup(name: "frame-encryption", comment: "encrypt_type (FRAME-5). These decoders cannot decrypt.", tests: [
            .valid(60, "encrypt_type 0 NONE", [.frame5], frame),
            .valid(61, "encrypt_type 1 CRC32: integrity only, the body is parsed", [.frame5, .crc1], frame.with { $0.encryptType = .crc32 }),
            .acceptable(62, "encrypt_type 2 AES256: fatal at a receiver that cannot decrypt, fine at one that can", [.frame5],
                        flags: [.encrypted], frame.with { $0.encryptType = .aes256 }, .unsupportedEncryption, at: 16),
            .invalid(63, "encrypt_type 3 is not defined", [.frame5], flags: [.unknownEncoding],
                     frame.with { $0.encryptType = EncryptType(rawValue: 3) }.bytes, .unsupportedEncryption, at: 16),
            .invalid(64, "encrypt_type 0xFF is not defined", [.frame5], flags: [.unknownEncoding],
                     frame.with { $0.encryptType = EncryptType(rawValue: 0xFF) }.bytes, .unsupportedEncryption, at: 16),
            .invalid(65, "encrypt_type 3 is reported before compress_type 2", [.frame5, .frame6], flags: [.unknownEncoding, .errorOrder],
                     frame.with { $0.encryptType = EncryptType(rawValue: 3); $0.compressType = CompressType(rawValue: 2) }.bytes,
                     .unsupportedEncryption, at: 16),
            .invalid(66, "encrypt_type 3 is reported before a bad checksum", [.frame5, .crc2], flags: [.unknownEncoding, .errorOrder],
                     frame.with { $0.encryptType = EncryptType(rawValue: 3) }.bytes.settingChecksum(0), .unsupportedEncryption, at: 16),
        ])
    }

    static var compression: VectorGroup {
        let frame = FrameRecipe.data(hello)
        return VectorGroup(name: "frame-compression", comment: "compress_type (FRAME-6).", tests: [
            .valid(80, "compress_type 0 NONE", [.frame6], frame),
            .valid(81, "compress_type 1 ZLIB", [.frame6, .zlib1], frame.with { $0.compressType = .zlib }),
            .invalid(82, "compress_type 2 is not defined", [.frame6], flags: [.unknownEncoding],
                     frame.with { $0.compressType = CompressType(rawValue: 2) }.bytes, .unsupportedCompression, at: 17),
            .invalid(83, "compress_type 0xFF is not defined", [.frame6], flags: [.unknownEncoding],
                     frame.with { $0.compressType = CompressType(rawValue: 0xFF) }.bytes, .unsupportedCompression, at: 17),
            .invalid(84, "compress_type 2 is reported before a truncated body", [.frame6, .frame3], flags: [.unknownEncoding, .errorOrder],
                     frame.with { $0.compressType = CompressType(rawValue: 2) }.bytes.keeping(30), .unsupportedCompression, at: 17),
            .invalid(85, "compress_type 2 is reported before a bad checksum", [.frame6, .crc2], flags: [.unknownEncoding, .errorOrder],
                     frame.with { $0.compressType = CompressType(rawValue: 2) }.bytes.settingChecksum(1), .unsupportedCompression, at: 17),
        ])
    }
}
