import DecafWire

/// Vectors for TLV bodies: framing, nesting, duplicates and unknown tags (TLV-1 to TLV-4).
enum TLVVectors {
    static var groups: [VectorGroup] { [framing, nesting, duplicates, duplicatesAllowed, depthOne, depthZero, unknownTags] }

    static let hello = TLVField(tag: .text, text: "hello")

    /// `depth` containers nested in one another, the innermost holding `fields`.
    static func nested(_ depth: Int, _ fields: [TLVField]) -> TLVField {
        (1..<depth).reduce(TLVField.container(fields)) { inner, _ in .container([inner]) }
    }

    static func tlv(_ tag: UInt16, _ length: UInt32, _ value: [UInt8] = []) -> [UInt8] {
        var out: [UInt8] = [UInt8(tag >> 8), UInt8(truncatingIfNeeded: tag)]
        out += [UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        return out + value
    }

    static func body(_ payload: [UInt8]) -> [UInt8] { FrameRecipe.data(payload: payload).bytes }

    static var framing: VectorGroup {
        let helloBytes = TLVEncoder.encode([hello])
        return VectorGroup(name: "tlv-framing", comment: "Fields are tag u16, length u32, value, consumed exactly (TLV-1).", tests: [
            .valid(400, "empty body: no fields", [.tlv1], flags: [.emptyBody], .data([])),
            .valid(401, "one field with a 0-length value", [.tlv1], flags: [.zeroLengthValue], .data([TLVField(tag: .text, bytes: [])])),
            .valid(402, "three fields with 0-length values", [.tlv1], flags: [.zeroLengthValue],
                   .data([TLVField(tag: .text, bytes: []), TLVField(tag: .image, bytes: []), TLVField(tag: .custom, bytes: [])])),
            .valid(403, "two fields back to back, no padding", [.tlv1], .data([hello, TLVField(tag: .image, bytes: [1, 2, 3])])),
            .invalid(410, "1 stray byte after the last field", [.tlv1], body(helloBytes + [0x10]), .tlvTruncated, at: 11),
            .invalid(411, "2 stray bytes after the last field", [.tlv1], body(helloBytes + [0x10, 0x02]), .tlvTruncated, at: 11),
            .invalid(412, "5 stray bytes, one short of a field header", [.tlv1], flags: [.boundary],
                     body(helloBytes + [0x10, 0x02, 0, 0, 0]), .tlvTruncated, at: 11),
            .invalid(413, "a body of 5 bytes", [.tlv1], flags: [.boundary], body([0x10, 0x01, 0, 0, 0]), .tlvTruncated, at: 0),
            .invalid(414, "a body of 1 byte", [.tlv1], body([0x10]), .tlvTruncated, at: 0),
            .invalid(415, "a TEXT field one byte short: length 6, 5 bytes follow", [.tlv1], flags: [.boundary],
                     body(tlv(0x1001, 6, Array("hello".utf8))), .tlvLengthOverflow, at: 0),
            .invalid(416, "length 0xFFFFFFFF", [.tlv1], body(tlv(0x1001, 0xFFFF_FFFF, [1, 2, 3])), .tlvLengthOverflow, at: 0),
            .invalid(417, "length 0x80000000", [.tlv1], body(tlv(0x1002, 0x8000_0000)), .tlvLengthOverflow, at: 0),
            .invalid(418, "the second field's length runs past the body", [.tlv1],
                     body(helloBytes + tlv(0x1002, 10, [1, 2, 3])), .tlvLengthOverflow, at: 11),
            .invalid(419, "a 6-byte field header with a length of 1 at the very end", [.tlv1], flags: [.boundary],
                     body(helloBytes + tlv(0x1002, 1)), .tlvLengthOverflow, at: 11),
        ])
    }

    static var nesting: VectorGroup {
        let deep4 = nested(4, [hello])
        let childTooLong = tlv(0xFFFF, 11, tlv(0x1001, 20, Array("hello".utf8))) + tlv(0x1007, 14, Array(repeating: 0x2A, count: 14))
        return VectorGroup(name: "tlv-nesting", comment: "Containers (tag 0xFFFF) nest TLV sequences; the default depth limit is 4 (TLV-2).", tests: [
            .valid(420, "an empty container", [.tlv2], flags: [.nesting, .zeroLengthValue], .data([.container([])])),
            .valid(421, "one container (fields at depth 1)", [.tlv2], flags: [.nesting], .data([.container([hello])])),
            .valid(422, "two nested containers", [.tlv2], flags: [.nesting], .data([nested(2, [hello])])),
            .valid(423, "three nested containers", [.tlv2], flags: [.nesting], .data([nested(3, [hello])])),
            .valid(424, "four nested containers: the deepest fields are at depth 4, the limit", [.tlv2], flags: [.nesting, .boundary],
                   .data([deep4])),
            .invalid(425, "five nested containers: the fifth container is too deep", [.tlv2], flags: [.nesting, .boundary, .briefAmbiguity],
                     FrameRecipe.data([nested(5, [hello])]).bytes, .tlvTooDeep, at: 24),
            .acceptable(426, "five nested containers, the fifth empty", [.tlv2], flags: [.nesting, .boundary, .briefAmbiguity],
                        FrameRecipe.data([nested(5, [])]), .tlvTooDeep, at: 24),
            .invalid(427, "six nested containers: the fifth is reported", [.tlv2], flags: [.nesting, .briefAmbiguity],
                     FrameRecipe.data([nested(6, [hello])]).bytes, .tlvTooDeep, at: 24),
            .invalid(428, "a too-deep container after a sibling field at depth 4", [.tlv2], flags: [.nesting, .briefAmbiguity],
                     FrameRecipe.data([nested(4, [hello, .container([hello])])]).bytes, .tlvTooDeep, at: 35),
            .valid(429, "a container holding a container and a field side by side", [.tlv2], flags: [.nesting],
                   .data([.container([.container([hello]), TLVField(tag: .image, bytes: [9])])])),
            .invalid(430, "a child whose length runs past its container but not past the body", [.tlv1, .tlv2], flags: [.nesting],
                     body(childTooLong), .tlvLengthOverflow, at: 6),
            .invalid(431, "a container holding 3 stray bytes", [.tlv1, .tlv2], flags: [.nesting],
                     body(tlv(0xFFFF, 3, [0x10, 0x01, 0x00])), .tlvTruncated, at: 6),
            .invalid(432, "a container whose length runs past the body", [.tlv1, .tlv2], flags: [.nesting],
                     body(tlv(0xFFFF, 40, TLVEncoder.encode([hello]))), .tlvLengthOverflow, at: 0),
            .invalid(433, "a truncated field inside four nested containers", [.tlv1, .tlv2], flags: [.nesting],
                     body(tlv(0xFFFF, 28, tlv(0xFFFF, 22, tlv(0xFFFF, 16, tlv(0xFFFF, 10, tlv(0x1001, 0) + [0x10, 0x01, 0x00, 0x00]))))),
                     .tlvTruncated, at: 30),
        ])
    }

    static var duplicates: VectorGroup {
        let many = (0..<40).map { TLVField(tag: TLVTag(UInt16(0x2000 + $0)), bytes: [UInt8($0)]) }
        let nine = Array(many.prefix(9))
        let nineLength = nine.reduce(0) { $0 + $1.encodedLength }
        let thirty = Array(many.prefix(29)) + [many[19]]
        let twentyNineLength = thirty.prefix(29).reduce(0) { $0 + $1.encodedLength }
        return VectorGroup(name: "tlv-duplicates", comment: "A tag may appear once per sequence by default (TLV-3).", tests: [
            .invalid(440, "TEXT twice at the top level", [.tlv3], flags: [.duplicateTag],
                     body(TLVEncoder.encode([hello, TLVField(tag: .text, text: "again")])), .tlvDuplicateTag, at: 11),
            .invalid(441, "two containers at the top level: the container tag counts too", [.tlv3], flags: [.duplicateTag, .nesting],
                     body(TLVEncoder.encode([.container([hello]), .container([])])), .tlvDuplicateTag, at: 17),
            .valid(442, "the same tag in a container and in its parent", [.tlv3], flags: [.nesting],
                   .data([hello, .container([hello])])),
            .valid(443, "the same tag in two nested sequences", [.tlv3], flags: [.nesting],
                   .data([.container([hello, .container([hello])])])),
            .invalid(444, "TEXT twice inside a container", [.tlv2, .tlv3], flags: [.duplicateTag, .nesting],
                     body(TLVEncoder.encode([.container([hello, hello])])), .tlvDuplicateTag, at: 17),
            .invalid(445, "a 0-length field repeated", [.tlv3], flags: [.duplicateTag, .zeroLengthValue],
                     body(tlv(0x7777, 0) + tlv(0x7777, 0)), .tlvDuplicateTag, at: 6),
            .invalid(446, "the first of nine distinct fields repeated as the tenth", [.tlv3], flags: [.duplicateTag, .manyFields],
                     body(TLVEncoder.encode(nine + [many[0]])), .tlvDuplicateTag, at: nineLength),
            .valid(447, "forty distinct tags", [.tlv3], flags: [.manyFields], .data(many)),
            .invalid(448, "the twentieth of thirty fields repeated as the thirtieth", [.tlv3], flags: [.duplicateTag, .manyFields],
                     body(TLVEncoder.encode(thirty)), .tlvDuplicateTag, at: twentyNineLength),
            .invalid(449, "a repeat is reported before a later field that overflows", [.tlv1, .tlv3], flags: [.duplicateTag, .errorOrder],
                     body(TLVEncoder.encode([hello, hello]) + tlv(0x1002, 99)), .tlvDuplicateTag, at: 11),
            .invalid(450, "a truncated field inside the first container is reported before later repeats", [.tlv1, .tlv3],
                     flags: [.errorOrder, .nesting], body(tlv(0xFFFF, 2, [0, 0]) + TLVEncoder.encode([hello, hello])), .tlvTruncated, at: 6),
            .invalid(451, "a too-deep container is reported before a later repeat", [.tlv2, .tlv3], flags: [.errorOrder, .nesting, .briefAmbiguity],
                     body(TLVEncoder.encode([nested(5, [hello]), hello, hello])), .tlvTooDeep, at: 24),
            .invalid(452, "a repeat inside four nested containers", [.tlv2, .tlv3], flags: [.duplicateTag, .nesting],
                     body(TLVEncoder.encode([nested(4, [hello, hello])])), .tlvDuplicateTag, at: 35),
        ])
    }

    static var duplicatesAllowed: VectorGroup {
        var options = DecodeOptions()
        options.tlv.allowsDuplicateTags = true
        return VectorGroup(name: "tlv-duplicates-allowed", comment: "A receiver that allows repeated tags; order is preserved.", options: options, tests: [
            .valid(460, "TEXT twice, in order", [.tlv3], flags: [.duplicateTag],
                   .data([hello, TLVField(tag: .text, text: "again")])),
            .valid(461, "two containers", [.tlv3], flags: [.duplicateTag, .nesting], .data([.container([hello]), .container([])])),
            .valid(462, "twelve fields with the same tag", [.tlv3], flags: [.duplicateTag, .manyFields],
                   .data((0..<12).map { TLVField(tag: .image, bytes: [UInt8($0)]) })),
            .invalid(463, "repeats allowed, depth still limited", [.tlv2, .tlv3], flags: [.nesting, .briefAmbiguity],
                     FrameRecipe.data([nested(5, [hello])]).bytes, .tlvTooDeep, at: 24),
        ])
    }

    static var depthOne: VectorGroup {
        var options = DecodeOptions()
        options.tlv.depthLimit = 1
        return VectorGroup(name: "tlv-depth-1", comment: "A receiver whose depth limit is 1.", options: options, tests: [
            .valid(470, "one container", [.tlv2], flags: [.nesting, .boundary], .data([.container([hello])])),
            .invalid(471, "a container in a container", [.tlv2], flags: [.nesting, .boundary, .briefAmbiguity],
                     FrameRecipe.data([nested(2, [hello])]).bytes, .tlvTooDeep, at: 6),
            .valid(472, "no containers", [.tlv2], .data([hello])),
        ])
    }

    static var depthZero: VectorGroup {
        var options = DecodeOptions()
        options.tlv.depthLimit = 0
        return VectorGroup(name: "tlv-depth-0", comment: "A receiver whose depth limit is 0: no containers at all.", options: options, tests: [
            .valid(480, "no containers", [.tlv2], .data([hello, TLVField(tag: .image, bytes: [1])])),
            .invalid(481, "one container", [.tlv2], flags: [.nesting, .boundary, .briefAmbiguity],
                     FrameRecipe.data([hello, .container([hello])]).bytes, .tlvTooDeep, at: 11),
        ])
    }

    static var unknownTags: VectorGroup {
        let request = Array(VersionRequest(version: .v1_0, features: .basic).value.prefix(3))
        return VectorGroup(name: "tlv-unknown-tags", comment: "Unknown tags are kept as raw bytes; odd values of known tags are not TLV errors (TLV-4).", tests: [
            .valid(490, "tags 0x0000, 0x7FFF and 0xFFFE", [.tlv4], flags: [.unknownTag],
                   .data([TLVField(tag: TLVTag(0x0000), bytes: [1]), TLVField(tag: TLVTag(0x7FFF), bytes: [2, 3]),
                          TLVField(tag: TLVTag(0xFFFE), bytes: [])])),
            .valid(491, "an unknown tag inside a container", [.tlv4, .tlv2], flags: [.unknownTag, .nesting],
                   .data([.container([TLVField(tag: TLVTag(0x4242), bytes: Array("opaque".utf8))])])),
            .valid(492, "VERSION_REQUEST with a 3-byte value", [.tlv4], flags: [.malformedKnownValue],
                   .frame(.control, [TLVField(tag: .versionRequest, bytes: request)])),
            .valid(493, "TEXT that is not valid UTF-8", [.tlv4], flags: [.malformedKnownValue],
                   .data([TLVField(tag: .text, bytes: [0xC3, 0x28, 0xFF])])),
            .valid(494, "READ_RECEIPT with an 8-byte value", [.tlv4], flags: [.malformedKnownValue],
                   .frame(.readReceipt, [TLVField(tag: .readReceipt, bytes: [0, 0, 0, 1, 0, 0, 0, 2])])),
            .valid(495, "ERROR with only a code", [.tlv4], .frame(.control, [TLVField(tag: .error, bytes: [0, 4])])),
        ])
    }
}
