/// One file of frame vectors: `Fixtures/vectors/<name>.json`.
public struct FrameVectorFile: Hashable, Sendable {
    public var name: String
    /// Lines for the file's `header`: what the file covers.
    public var description: [String]
    public var groups: [VectorGroup]

    public init(name: String, description: [String], groups: [VectorGroup]) {
        self.name = name
        self.description = description
        self.groups = groups
    }

    public var tests: [FrameVector] { groups.flatMap(\.tests) }

    /// Every frame vector file, in a fixed order. tcIds are unique across all of them. Made once
    /// (a constant: the zlib bombs take a moment to compress) and shared by every reader.
    public static let all: [FrameVectorFile] = [
        FrameVectorFile(
            name: "frame-header",
            description: ["Frame header rules: magic, version, msg_type, encryption and compression flags, body limit, truncation, timestamp window, sequence and session."],
            groups: HeaderVectors.groups + VersionVectors.groups + LimitVectors.groups + TimestampVectors.groups + SequenceVectors.groups
        ),
        FrameVectorFile(name: "frame-checksum", description: ["The body checksum: CRC-32/ISO-HDLC, big-endian, checked before the body is read."],
                        groups: ChecksumVectors.groups),
        FrameVectorFile(name: "frame-tlv", description: ["TLV bodies: framing, nesting depth, duplicate tags and unknown tags."],
                        groups: TLVVectors.groups),
        FrameVectorFile(name: "frame-zlib", description: ["zlib bodies: valid streams from two encoders, malformed streams, and the inflated-size limit."],
                        groups: ZlibVectors.groups),
    ]
}
