import DecafVectors
import DecafWire

/// Client cases of framing and hostile servers: frames split byte by byte, coalesced, compressed,
/// at the limits, and every kind of broken frame, which the client must refuse without delivering
/// it, close, and never crash on (EX-5).
enum ClientFramingCases {
    static var cases: [ClientCase] {
        let sentinel = ClientCaseSteps.payload(ClientCaseSteps.sentinelText)
        let hello = ClientCaseSteps.payload("hello from the server")
        func delivered(_ id: String, _ requirements: [RequirementID], level: ConformanceLevel = .required, _ summary: String,
                       features: FeatureFlags = .basic, needs: FeatureFlags = [], handshake: HandshakeAnswer = .ackFirst,
                       _ steps: [ServerStep], _ payloads: [[UInt8]]) -> ClientCase {
            ClientCase(id, requirements, level, summary,
                       script: ServerScript(features: features, connections: [ConnectionScript(handshake: handshake, steps: steps + ClientCaseSteps.closing)]),
                       needs: needs, check: .delivered(payloads + [sentinel]))
        }
        func refused(_ id: String, _ requirements: [RequirementID], _ summary: String, _ code: ErrorCode, _ step: ServerStep,
                     sequence: SequenceNumber? = SequenceNumber(category: .normal, counter: 1), after before: [ServerStep] = []) -> ClientCase {
            ClientCase(id, requirements, .required, summary,
                       script: ServerScript(connections: [ConnectionScript(steps: before + [step, .awaitClosed, .pause(.milliseconds(200)), .finish])]),
                       check: .refuses(code, sequence: sequence))
        }
        let data = CaseFrames.header(.data, 1)
        var compressed = data
        compressed.compressType = .zlib
        let deep = (0..<5).reduce([TLVField(tag: .text, text: "too deep")]) { inner, _ in [TLVField.container(inner)] }
        let fourDeep = (0..<4).reduce([TLVField(tag: .text, text: "deep enough")]) { inner, _ in [TLVField.container(inner)] }
        let atLimit = [TLVField(tag: .custom, bytes: Array(repeating: 0x5A, count: DecodeOptions.defaultBodyLimit - 6))]
        let bomb = ZlibCompressor().compress(TLVEncoder.encode([TLVField(tag: .custom, bytes: Array(repeating: 0, count: DecodeOptions.defaultBodyLimit + 1024))]))
        let wholeFrame = CaseFrames.bytes(data, [TLVField(tag: .text, text: "hello from the server")])
        return [
            delivered("client.frame.split-byte-by-byte", [.frame3], "reads a handshake answer and a DATA frame written one byte at a time",
                      handshake: .bytewise, [ClientCaseSteps.data(1, "hello from the server", split: CaseFrames.bytewise(wholeFrame.count), pause: .milliseconds(1))],
                      [hello]),
            delivered("client.frame.header-then-body", [.frame3], "reads a frame whose body comes 50 ms after its header",
                      [ClientCaseSteps.data(1, "hello from the server", split: [FrameHeader.size], pause: .milliseconds(50))], [hello]),
            delivered("client.frame.coalesced", [.frame3], "reads three DATA frames that arrive in one write",
                      [.send(CaseFrames.together((1...3).map { (CaseFrames.header(.data, UInt32($0)), [TLVField(tag: .text, text: "frame \($0)")]) }))],
                      (1...3).map { ClientCaseSteps.payload("frame \($0)") }),
            delivered("client.frame.compressed", [.zlib1], "inflates a compressed DATA frame once COMPRESSION is agreed",
                      features: [.basic, .compression], needs: .compression,
                      [ClientCaseSteps.frame(compressed, [TLVField(tag: .text, text: String(repeating: "squeeze me ", count: 50))])],
                      [ClientCaseSteps.payload(String(repeating: "squeeze me ", count: 50))]),
            delivered("client.frame.empty-compressed-body", [.zlib3], "takes a body_length of 0 with compress_type ZLIB as an empty body",
                      features: [.basic, .compression], needs: .compression,
                      [ClientCaseSteps.raw(compressed, body: [], label: "DATA seq NORMAL/1, ZLIB, empty body")], [[]]),
            delivered("client.frame.empty-body", [.crc1, .tlv1], "takes an empty body with checksum 0", [ClientCaseSteps.raw(data, body: [], label: "DATA seq NORMAL/1, empty body")], [[]]),
            delivered("client.frame.unknown-tag", [.tlv4], "delivers a field of an unknown tag as raw bytes",
                      [ClientCaseSteps.frame(data, [TLVField(tag: TLVTag(0x7777), bytes: [0xDE, 0xCA, 0xF0]), TLVField(tag: .text, text: "after it")])],
                      [TLVEncoder.encode([TLVField(tag: TLVTag(0x7777), bytes: [0xDE, 0xCA, 0xF0]), TLVField(tag: .text, text: "after it")])]),
            delivered("client.frame.four-containers", [.tlv2], "takes four nested containers, the brief's depth limit",
                      [ClientCaseSteps.frame(data, fourDeep)], [TLVEncoder.encode(fourDeep)]),
            delivered("client.frame.category-mismatch", [.seq2], "takes a DATA frame in the HEARTBEAT category: a warning, never fatal",
                      [ClientCaseSteps.data(1, "odd category", category: .heartbeat)], [ClientCaseSteps.payload("odd category")]),
            delivered("client.frame.counters-not-contiguous", [.seq1], "takes counters that jump and wrap: 0xFFFFFF, 0, 7, 1000",
                      [0xFF_FFFF, 0, 7, 1000].map { ClientCaseSteps.data($0, "counter \($0)") }, [0xFF_FFFF, 0, 7, 1000].map { ClientCaseSteps.payload("counter \($0)") }),
            delivered("client.frame.body-at-limit", [.frame2], level: .recommended, "takes a body of exactly 10 MiB, the brief's default limit",
                      [ClientCaseSteps.frame(data, atLimit)], [TLVEncoder.encode(atLimit)]),
            ClientCase("client.frame.timestamp-far", [.ts1], .optional, "a DATA frame an hour old: accepted, or refused as TIMESTAMP_OUT_OF_WINDOW (a MAY)",
                       script: ServerScript(connections: [ConnectionScript(steps: [ClientCaseSteps.data(1, "an hour late", skew: -3600), .pause(.milliseconds(300))] + ClientCaseSteps.closing)]),
                       check: .acceptsOrRefuses(SequenceNumber(category: .normal, counter: 1), .timestampOutOfWindow)),
            ClientCase("client.frame.duplicate-tags", [.tlv3], .required, "two TEXT fields: refused as TLV_DUPLICATE_TAG, or accepted where duplicates are allowed, never ignored",
                       script: ServerScript(connections: [ConnectionScript(steps: [ClientCaseSteps.frame(data, [TLVField(tag: .text, text: "one"), TLVField(tag: .text, text: "two")]),
                                                                                   .pause(.milliseconds(300))] + ClientCaseSteps.closing)]),
                       check: .acceptsOrRefuses(SequenceNumber(category: .normal, counter: 1), .tlvDuplicateTag)),
            refused("client.frame.bad-magic", [.frame1, .ex5], "refuses bytes that do not start with 0xDECAFBAD, and closes", .badMagic,
                    ClientCaseSteps.damaged(FrameDamage(magic: 0xCAFE_BABE), label: "DATA with magic 0xCAFEBABE")),
            refused("client.frame.bad-checksum", [.crc2, .ex5], "refuses a DATA frame whose checksum does not match, delivering nothing", .checksumMismatch,
                    ClientCaseSteps.damaged(FrameDamage(badChecksum: true), label: "DATA with a wrong checksum")),
            refused("client.frame.checksum-little-endian", [.crc2, .crc3], "refuses a checksum written little-endian", .checksumMismatch,
                    ClientCaseSteps.damaged(FrameDamage(littleEndianChecksum: true), label: "DATA with its checksum little-endian")),
            refused("client.frame.body-too-large", [.frame2, .ex5], "refuses a body_length of 4 GiB from the header alone, and closes", .bodyTooLarge,
                    .send(Transmission(label: "DATA header with body_length 0xFFFFFFF0, then 16 bytes",
                                       bytes: FrameDamage(bodyLength: 0xFFFF_FFF0).apply(to: wholeFrame).prefix(FrameHeader.size + 16).map { $0 },
                                       stamps: [Transmission.Stamp(headerOffset: 0)]))),
            refused("client.frame.version-major", [.ver1, .ex5], "refuses a DATA frame of version 2.0", .versionUnsupported,
                    ClientCaseSteps.damaged(FrameDamage(), label: "DATA of version 2.0") { $0.version = ProtocolVersion(major: 2, minor: 0) }),
            refused("client.frame.version-minor-higher", [.ver2, .ex5], "refuses a DATA frame whose minor is one above the highest it says it has", .versionUnsupported,
                    ClientCaseSteps.raw(data, body: ClientCaseSteps.payload("this frame is broken"), label: "DATA of a minor above the client's highest",
                                        minorAboveClient: true),
                    // The frame's version follows the client's own, from its `ready` line.
                    after: [.awaitEvent("ready")]),
            refused("client.frame.unsupported-encryption", [.frame5, .ex5], "refuses encrypt_type 7", .unsupportedEncryption,
                    ClientCaseSteps.damaged(FrameDamage(), label: "DATA with encrypt_type 7") { $0.encryptType = EncryptType(rawValue: 7) }),
            refused("client.frame.encrypted-not-agreed", [.frame5, .ex5], "refuses an AES256 body it has no key for (ENCRYPTION was not agreed)",
                    .unsupportedEncryption,
                    ClientCaseSteps.damaged(FrameDamage(), label: "DATA with encrypt_type AES256") { $0.encryptType = .aes256 }),
            refused("client.frame.unsupported-compression", [.frame6, .ex5], "refuses compress_type 5", .unsupportedCompression,
                    ClientCaseSteps.damaged(FrameDamage(), label: "DATA with compress_type 5") { $0.compressType = CompressType(rawValue: 5) }),
            refused("client.frame.bad-zlib", [.zlib1, .ex5], "refuses a ZLIB body that is not a zlib stream", .decompressionFailed,
                    ClientCaseSteps.damaged(FrameDamage(), label: "DATA whose ZLIB body is not zlib") { $0.compressType = .zlib }),
            refused("client.frame.zlib-bomb", [.zlib2, .ex5], "stops inflating a body that grows past 10 MiB, and refuses it", .decompressionFailed,
                    ClientCaseSteps.raw(compressed, body: bomb, label: "DATA whose \(bomb.count)-byte ZLIB body inflates past 10 MiB")),
            refused("client.frame.tlv-truncated", [.tlv1, .ex5], "refuses a body of 3 bytes, shorter than a field header", .tlvTruncated,
                    ClientCaseSteps.raw(data, body: [0x10, 0x01, 0x00], label: "DATA with a 3-byte body")),
            refused("client.frame.tlv-overflow", [.tlv1, .ex5], "refuses a field whose length runs past the body", .tlvLengthOverflow,
                    ClientCaseSteps.raw(data, body: [0x10, 0x01, 0x00, 0x00, 0x00, 0x64, 0x68, 0x69], label: "DATA with a TEXT field of length 100 holding 2 bytes")),
            refused("client.frame.tlv-too-deep", [.tlv2, .ex5], "refuses five nested containers", .tlvTooDeep,
                    ClientCaseSteps.frame(data, deep)),
            ClientCase("client.frame.truncated-then-close", [.frame3, .ex5], .required,
                       "a frame cut off by the end of the stream: nothing delivered, no crash",
                       script: ServerScript(connections: [ConnectionScript(steps: [
                           .send(Transmission(label: "the first 20 bytes of a DATA frame", bytes: Array(wholeFrame.prefix(20)))),
                           .pause(.milliseconds(100)), .close, .pause(.milliseconds(300)), .finish,
                       ])]),
                       check: .truncatedIgnored),
        ]
    }
}
