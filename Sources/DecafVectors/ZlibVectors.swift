import DecafWire

/// Vectors for zlib bodies (ZLIB-1, ZLIB-2, ZLIB-3), including streams made by zlib itself.
enum ZlibVectors {
    static var groups: [VectorGroup] { [streams, otherEncoders, malformed, limits, smallLimit] }

    /// The TLV bytes inside the streams that Python's zlib module made.
    static let otherText = "Hello from another implementation, hello again, hello!"
    static var otherFields: [TLVField] { [TLVField(tag: .text, text: otherText)] }
    static let zlibLevel9 = "78da136064606030f348cdc9c957482bcacf5548cccb2fc9482d52c8cc2dc849cd4dcd2b492cc9cccfd351c8002b494c4fcc847114013d8a1428"
    static let zlibFixedHuffman = "7801136064606030f348cdc9c957482bcacf5548cccb2fc9482d52c8cc2dc849cd4dcd2b492cc9cccfd351c8002b494c4fcc847114013d8a1428"
    static let zlibStored = "7801013c00c3ff10010000003648656c6c6f2066726f6d20616e6f7468657220696d706c656d656e746174696f6e2c2068656c6c6f20616761696e2c2068656c6c6f213d8a1428"
    static let zlibWindow512 = "18d3136064606030f348cdc9c957482bcacf5548cccb2fc9482d52c8cc2dc849cd4dcd2b492cc9cccfd351c8002b494c4fcc847114013d8a1428"
    static let zlibEmpty = "789c030000000001"
    static let rawDeflate = "136064606030f348cdc9c957482bcacf5548cccb2fc9482d52c8cc2dc849cd4dcd2b492cc9cccfd351c8002b494c4fcc84711401"
    static let gzip = "1f8b0800000000000003136064606030f348cdc9c957482bcacf5548cccb2fc9482d52c8cc2dc849cd4dcd2b492cc9cccfd351c8002b494c4fcc847114016a7469753c000000"

    /// A DATA frame flagged ZLIB whose body is exactly `body`.
    static func frame(body: [UInt8]) -> [UInt8] {
        FrameRecipe.data([]).with { $0.compressType = .zlib }.bytes.appendingToBody(body)
    }

    /// A DATA frame flagged ZLIB whose body is the zlib stream in `hex`, decoding to `otherFields`.
    static func other(_ tcId: Int, _ comment: String, _ hex: String) -> FrameVector {
        .valid(tcId, comment, [.zlib1], flags: [.otherEncoder, .handwrittenBytes], bytes: frame(body: Hex.bytes(hex)!),
               payload: TLVEncoder.encode(otherFields), fields: otherFields)
    }

    /// A zlib stream of `payload` at libdeflate's strongest level.
    static func compressed(_ payload: [UInt8]) -> [UInt8] { ZlibCompressor(level: 12).compress(payload) }

    /// A two-byte zlib header with CMF `cmf`, the flag bits `flags` and a correct FCHECK.
    static func zlibHeader(cmf: UInt8, flags: UInt8) -> [UInt8] {
        let base = UInt16(cmf) << 8 | UInt16(flags & 0xE0)
        return [cmf, (flags & 0xE0) | UInt8((31 - base % 31) % 31)]
    }

    static var streams: VectorGroup {
        let hello = FrameRecipe.data(HeaderVectors.hello).with { $0.compressType = .zlib }
        return VectorGroup(name: "zlib", comment: "Bodies with compress_type 1: one complete zlib stream of the TLV bytes.", tests: [
            .valid(500, "TEXT compressed by Decaf's encoder", [.zlib1], hello),
            .valid(501, "several fields and a container, compressed", [.zlib1, .tlv2], flags: [.nesting],
                   FrameRecipe.data([TLVField(tag: .text, text: String(repeating: "decaf ", count: 40)), .container([HeaderVectors.hello[0]])])
                       .with { $0.compressType = .zlib }),
            .valid(502, "empty body with compress_type 1 is an empty body", [.zlib3], flags: [.emptyBody], FrameRecipe.data([]).with { $0.compressType = .zlib }),
            .valid(503, "empty body with compress_type 0", [.zlib3], flags: [.emptyBody], .data([])),
            .invalid(504, "empty body with compress_type 2 is still an unknown compression", [.zlib3, .frame6], flags: [.emptyBody, .unknownEncoding],
                     FrameRecipe.data([]).with { $0.compressType = CompressType(rawValue: 2) }.bytes, .unsupportedCompression, at: 17),
            .invalid(505, "empty body with compress_type 0xFF", [.zlib3, .frame6], flags: [.emptyBody, .unknownEncoding],
                     FrameRecipe.data([]).with { $0.compressType = CompressType(rawValue: 0xFF) }.bytes, .unsupportedCompression, at: 17),
            .valid(506, "a zlib stream of nothing: 8 bytes that inflate to an empty body", [.zlib1, .zlib3], flags: [.otherEncoder],
                   bytes: frame(body: Hex.bytes(zlibEmpty)!), payload: [], fields: []),
            .valid(507, "a zlib body with encrypt_type 1 CRC32", [.zlib1, .frame5], hello.with { $0.encryptType = .crc32 }),
        ])
    }

    static var otherEncoders: VectorGroup {
        VectorGroup(name: "zlib-other-encoders", comment: "Streams made by zlib (Python's zlib module) decode like Decaf's own.", tests: [
            other(520, "zlib level 9, dynamic Huffman", zlibLevel9),
            other(521, "zlib with fixed Huffman codes (Z_FIXED)", zlibFixedHuffman),
            other(522, "zlib level 0: one stored block", zlibStored),
            other(523, "zlib with a 512-byte window (wbits 9)", zlibWindow512),
        ])
    }

    static var malformed: VectorGroup {
        let good = compressed(TLVEncoder.encode(HeaderVectors.hello))
        let other = Hex.bytes(zlibLevel9)!
        return VectorGroup(name: "zlib-malformed", comment: "Bodies flagged ZLIB that are not exactly one valid zlib stream (ZLIB-1).", tests: [
            .invalid(540, "one byte after the end of the stream", [.zlib1], flags: [.trailingBytes], frame(body: good + [0]), .decompressionFailed, at: 28),
            .invalid(541, "a second zlib stream after the first", [.zlib1], flags: [.trailingBytes], frame(body: good + good), .decompressionFailed, at: 28),
            .invalid(542, "Adler-32 off by one", [.zlib1], frame(body: Array(other.dropLast()) + [other.last! ^ 1]), .decompressionFailed, at: 28),
            .invalid(543, "the Adler-32 missing", [.zlib1], frame(body: Array(other.dropLast(4))), .decompressionFailed, at: 28),
            .invalid(544, "the stream cut in the middle of its data", [.zlib1], frame(body: Array(other.prefix(20))), .decompressionFailed, at: 28),
            .invalid(545, "compression method 15 in the zlib header", [.zlib1], flags: [.notZlib],
                     frame(body: zlibHeader(cmf: 0x7F, flags: 0) + other.dropFirst(2)), .decompressionFailed, at: 28),
            .invalid(546, "a zlib header whose check bits are wrong", [.zlib1], flags: [.notZlib],
                     frame(body: [0x78, 0x9D] + other.dropFirst(2)), .decompressionFailed, at: 28),
            .invalid(547, "a zlib header asking for a preset dictionary", [.zlib1], flags: [.notZlib],
                     frame(body: zlibHeader(cmf: 0x78, flags: 0x20) + [0, 0, 0, 1] + other.dropFirst(2)), .decompressionFailed, at: 28),
            .invalid(548, "raw DEFLATE without the zlib wrapper", [.zlib1], flags: [.notZlib, .otherEncoder],
                     frame(body: Hex.bytes(rawDeflate)!), .decompressionFailed, at: 28),
            .invalid(549, "a gzip stream", [.zlib1], flags: [.notZlib, .otherEncoder], frame(body: Hex.bytes(gzip)!), .decompressionFailed, at: 28),
            .invalid(550, "plain TLV bytes flagged as ZLIB", [.zlib1], flags: [.notZlib],
                     frame(body: TLVEncoder.encode(HeaderVectors.hello)), .decompressionFailed, at: 28),
            .invalid(551, "a block of the reserved type 3", [.zlib1], flags: [.notZlib], frame(body: [0x78, 0x9C, 0x07, 0x00]), .decompressionFailed, at: 28),
            .invalid(552, "a valid stream whose TLV bytes end in a stray fragment", [.zlib1, .tlv1], flags: [.compressedTLVError],
                     frame(body: compressed(TLVEncoder.encode(HeaderVectors.hello) + [0x10, 0x01, 0x00])), .tlvTruncated, at: 11),
            .invalid(553, "a valid stream whose TLV bytes repeat a tag", [.zlib1, .tlv3], flags: [.compressedTLVError, .duplicateTag],
                     frame(body: compressed(TLVEncoder.encode(HeaderVectors.hello + HeaderVectors.hello))), .tlvDuplicateTag, at: 11),
            .invalid(554, "a valid stream whose TLV bytes nest five containers", [.zlib1, .tlv2], flags: [.compressedTLVError, .nesting, .briefAmbiguity],
                     frame(body: compressed(TLVEncoder.encode([TLVVectors.nested(5, HeaderVectors.hello)]))), .tlvTooDeep, at: 24),
        ])
    }

    static var limits: VectorGroup {
        let bomb = compressed([UInt8](repeating: 0, count: DecodeOptions.defaultBodyLimit + 1))
        return VectorGroup(name: "zlib-bomb-default", comment: "The default 10 MiB limit applies to the inflated body (ZLIB-2).", tests: [
            .invalid(560, "10,485,761 zero bytes, one over the limit, in a ~10 KB body", [.zlib2], flags: [.zlibBomb, .boundary],
                     frame(body: bomb), .decompressionFailed, at: 28),
        ])
    }

    static var smallLimit: VectorGroup {
        var options = DecodeOptions()
        options.bodyLimit = 4096
        let chat = Array(String(repeating: "see you at the cafe at eight? ", count: 200).utf8)
        func image(_ size: Int) -> [TLVField] { [TLVField(tag: .image, bytes: Array(chat.prefix(size - 6)))] }
        let stored = ZlibCompressor(level: 0).compress(TLVEncoder.encode(image(4090)))
        return VectorGroup(name: "zlib-limit-4096", comment: "A receiver whose body limit is 4096 bytes, before and after inflating.", options: options, tests: [
            .valid(570, "inflates to exactly 4096 bytes", [.zlib2], flags: [.boundary], FrameRecipe.data(image(4096)).with { $0.compressType = .zlib }),
            .invalid(571, "inflates to 4097 bytes", [.zlib2], flags: [.boundary],
                     FrameRecipe.data(image(4097)).with { $0.compressType = .zlib }.bytes, .decompressionFailed, at: 28),
            .invalid(572, "1 MiB of zero bytes in a ~1 KB body", [.zlib2], flags: [.zlibBomb],
                     frame(body: compressed([UInt8](repeating: 0, count: 1 << 20))), .decompressionFailed, at: 28),
            .invalid(573, "a stored (uncompressed) zlib body over the limit is refused from the header", [.frame2, .zlib2], flags: [.errorOrder],
                     frame(body: stored), .bodyTooLarge, at: 20),
        ])
    }
}
