import DecafWire

/// Vectors for the body checksum (CRC-1, CRC-2, CRC-3).
enum ChecksumVectors {
    static var groups: [VectorGroup] { [checksum] }

    /// The first DATA frame, TEXT "palindrome N" for N = 0, 1, ..., whose checksum's bytes read the
    /// same in both orders.
    static var palindromicChecksum: FrameRecipe {
        var counter = 0
        while true {
            let recipe = FrameRecipe.data([TLVField(tag: .text, text: "palindrome \(counter)")])
            let crc = CRC32.checksum(recipe.payload)
            if crc == crc.byteSwapped { return recipe }
            counter += 1
        }
    }

    static var checksum: VectorGroup {
        let hello = FrameRecipe.data(HeaderVectors.hello)
        let helloBytes = hello.bytes
        let crc = CRC32.checksum(helloBytes[28...])
        let long = FrameRecipe.data([TLVField(tag: .text, text: String(repeating: "The quick brown fox. ", count: 12))])
        let longBytes = long.bytes
        let zlib = hello.with { $0.compressType = .zlib }
        let tlvBytes = TLVEncoder.encode(HeaderVectors.hello)
        return VectorGroup(name: "checksum", comment: "CRC-32/ISO-HDLC of the body as sent, big-endian.", tests: [
            .valid(200, "checksum is the CRC-32 of the body", [.crc1, .crc2], hello),
            .valid(217, "a checksum that reads the same in both byte orders is correct, not the little-endian defect", [.crc1, .crc3],
                   palindromicChecksum),
            .valid(201, "empty body: checksum 0", [.crc1], flags: [.emptyBody], .frame(.ack)),
            .valid(202, "zlib body: checksum over the compressed bytes", [.crc1, .zlib1], zlib),
            .valid(203, "encrypt_type 1 CRC32 with a correct checksum", [.crc1, .frame5], hello.with { $0.encryptType = .crc32 }),
            .valid(204, "checksum over a 258-byte body", [.crc1], long),
            .invalid(205, "empty body with checksum 1", [.crc1, .crc2], flags: [.emptyBody],
                     FrameRecipe.frame(.ack).bytes.settingChecksum(1), .checksumMismatch, at: 24),
            .invalid(206, "checksum with its lowest bit flipped", [.crc2], helloBytes.settingChecksum(crc ^ 1), .checksumMismatch, at: 24),
            .invalid(207, "checksum written little-endian", [.crc2, .crc3], flags: [.checksumLittleEndian],
                     helloBytes.settingChecksum(crc.byteSwapped), .checksumMismatch, at: 24),
            .invalid(208, "checksum written little-endian on a 258-byte body", [.crc2, .crc3], flags: [.checksumLittleEndian],
                     longBytes.settingChecksum(CRC32.checksum(longBytes[28...]).byteSwapped), .checksumMismatch, at: 24),
            .invalid(209, "checksum 0 on a non-empty body", [.crc1, .crc2], helloBytes.settingChecksum(0), .checksumMismatch, at: 24),
            .invalid(210, "one body bit flipped in transit", [.crc2], helloBytes.flippingBit(0, ofByte: 36), .checksumMismatch, at: 24),
            .invalid(211, "checksum without the final XOR (CRC-32/JAMCRC)", [.crc1, .crc2], flags: [.checksumOfWrongBytes],
                     helloBytes.settingChecksum(~crc), .checksumMismatch, at: 24),
            .invalid(212, "zlib body whose checksum covers the uncompressed TLV bytes", [.crc1, .crc2], flags: [.checksumOfWrongBytes],
                     zlib.bytes.settingChecksum(CRC32.checksum(tlvBytes)), .checksumMismatch, at: 24),
            .invalid(213, "checksum over header and body instead of the body", [.crc1, .crc2], flags: [.checksumOfWrongBytes],
                     helloBytes.settingChecksum(CRC32.checksum(helloBytes.settingChecksum(0))), .checksumMismatch, at: 24),
            .invalid(214, "bad checksum and a bad zlib stream: the checksum is checked first", [.crc2, .zlib1], flags: [.errorOrder],
                     FrameRecipe.data([]).with { $0.compressType = .zlib }.bytes.appendingToBody([0x78, 0x9C, 0xFF]).settingChecksum(7),
                     .checksumMismatch, at: 24),
            .invalid(215, "bad checksum and a malformed TLV body: the checksum is checked first", [.crc2, .tlv1], flags: [.errorOrder],
                     FrameRecipe.data([]).bytes.appendingToBody([0x10, 0x01, 0x00, 0x00, 0x00, 0x09, 0x41]).settingChecksum(7),
                     .checksumMismatch, at: 24),
            .invalid(216, "encrypt_type 1 CRC32 with a wrong checksum", [.crc2, .frame5],
                     hello.with { $0.encryptType = .crc32 }.bytes.settingChecksum(crc ^ 0x8000_0000), .checksumMismatch, at: 24),
        ])
    }
}
