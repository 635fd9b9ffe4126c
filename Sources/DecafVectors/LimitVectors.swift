import DecafWire

/// Vectors for body_length against the receiver's limit (FRAME-2) and for frame completeness on a
/// stream that ends (FRAME-3).
enum LimitVectors {
    static var groups: [VectorGroup] { [defaultLimit, smallLimit, truncation] }

    static func header(bodyLength: UInt32) -> [UInt8] {
        FrameRecipe.data([]).bytes.settingUInt32(at: 20, bodyLength).keeping(28)
    }

    /// A DATA frame whose body is exactly `size` bytes: one IMAGE field.
    static func body(of size: Int) -> FrameRecipe {
        .data([TLVField(tag: .image, bytes: (0..<(size - 6)).map { UInt8(truncatingIfNeeded: $0) })])
    }

    static var defaultLimit: VectorGroup {
        VectorGroup(name: "body-limit-default", comment: "The brief's default limit, 10,485,760 bytes. Streams hold only the header.", tests: [
            .invalid(150, "body_length 10,485,761, one over the default limit", [.frame2], flags: [.boundary, .headerOnly],
                     header(bodyLength: 10_485_761), .bodyTooLarge, at: 20),
            .invalid(151, "body_length 0xFFFFFFFF (4 GiB)", [.frame2], flags: [.headerOnly], header(bodyLength: 0xFFFF_FFFF), .bodyTooLarge, at: 20),
            .invalid(152, "body_length 0x80000000", [.frame2], flags: [.headerOnly], header(bodyLength: 0x8000_0000), .bodyTooLarge, at: 20),
            .invalid(153, "body_length exactly at the limit is not too large: the stream just ends early", [.frame2, .frame3],
                     flags: [.boundary, .headerOnly], header(bodyLength: 10_485_760), .truncatedFrame, at: 0),
            .invalid(154, "body_length over the limit is reported before a bad encrypt_type", [.frame2, .frame5],
                     flags: [.errorOrder, .headerOnly], header(bodyLength: 0xFFFF_FFFF).patching(16, [9]), .bodyTooLarge, at: 20),
        ])
    }

    static var smallLimit: VectorGroup {
        var options = DecodeOptions()
        options.bodyLimit = 64
        return VectorGroup(name: "body-limit-64", comment: "A receiver whose body limit is 64 bytes.", options: options, tests: [
            .valid(160, "body of exactly 64 bytes", [.frame2], flags: [.boundary], body(of: 64)),
            .invalid(161, "body of 65 bytes", [.frame2], flags: [.boundary], body(of: 65).bytes, .bodyTooLarge, at: 20),
            .invalid(162, "header of a 65-byte body, without the body", [.frame2], flags: [.boundary, .headerOnly],
                     body(of: 65).bytes.keeping(28), .bodyTooLarge, at: 20),
            .valid(163, "empty body", [.frame2], flags: [.emptyBody], .data([])),
            .valid(164, "body of 63 bytes", [.frame2], body(of: 63)),
        ])
    }

    static var truncation: VectorGroup {
        let frame = FrameRecipe.data(HeaderVectors.hello).bytes
        let empty = FrameRecipe.frame(.heartbeat).bytes
        return VectorGroup(name: "truncation", comment: "Streams that end inside a frame (FRAME-3). Every prefix here is a valid start of a frame.", tests: [
            .valid(180, "a frame of 28 + body_length bytes is complete", [.frame3], .data(HeaderVectors.hello)),
            .valid(181, "a header with body_length 0 is a complete frame", [.frame3], flags: [.emptyBody], .frame(.heartbeat)),
            .invalid(182, "only the first byte of the magic", [.frame3], Array(frame.prefix(1)), .truncatedFrame, at: 0),
            .invalid(183, "only the magic", [.frame3], Array(frame.prefix(4)), .truncatedFrame, at: 0),
            .invalid(184, "27 bytes of a header", [.frame3], flags: [.boundary], Array(empty.prefix(27)), .truncatedFrame, at: 0),
            .invalid(185, "the header without its 11-byte body", [.frame3], flags: [.headerOnly], Array(frame.prefix(28)), .truncatedFrame, at: 0),
            .invalid(186, "the frame without its last byte", [.frame3], flags: [.boundary], Array(frame.dropLast()), .truncatedFrame, at: 0),
            .invalid(187, "a 100-byte body of which 50 arrived", [.frame3], body(of: 100).bytes.keeping(78), .truncatedFrame, at: 0),
            .invalid(188, "a truncated body is reported before its (unknowable) checksum", [.frame3, .crc2], flags: [.errorOrder],
                     frame.settingChecksum(0).keeping(35), .truncatedFrame, at: 0),
            .invalid(189, "a truncated zlib body is reported as truncated, not as a decompression failure", [.frame3, .zlib1],
                     flags: [.errorOrder], Array(FrameRecipe.data(HeaderVectors.hello).with { $0.compressType = .zlib }.bytes.dropLast(3)),
                     .truncatedFrame, at: 0),
        ])
    }

}
