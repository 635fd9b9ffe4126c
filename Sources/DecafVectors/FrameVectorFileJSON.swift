import DecafJSON
import DecafWire

/// The JSON form of a frame vector file (schema `decaf_frame_vectors_v1`), Wycheproof-style. See
/// `Specs/decaf-wire-v1.md`, "Golden vectors", for the meaning of every key.
public struct FrameVectorFileJSON: Codable, Hashable, Sendable {
    public static let schemaName = "decaf_frame_vectors_v1.json"

    public var algorithm: String
    public var schema: String
    public var generatorVersion: String
    public var numberOfTests: Int
    public var header: [String]
    public var notes: [String: Note]
    public var testGroups: [Group]

    public struct Note: Codable, Hashable, Sendable {
        public var description: String
    }

    public struct Group: Codable, Hashable, Sendable {
        public var name: String
        public var type: String
        public var comment: String
        public var options: Options
        public var tests: [Test]
    }

    /// The decode options a receiver uses for a group.
    public struct Options: Codable, Hashable, Sendable {
        public var bodyLimit: Int
        public var depthLimit: Int
        public var allowDuplicateTags: Bool
        public var versionMajor: Int
        public var highestMinor: Int
        public var acceptsEncryptedBodies: Bool
        /// Absent: no timestamp window.
        public var timestampWindow: Window?

        public struct Window: Codable, Hashable, Sendable {
            public var seconds: UInt32
            public var now: UInt32
        }
    }

    public struct Test: Codable, Hashable, Sendable {
        public var tcId: Int
        public var comment: String
        public var requirements: [String]
        public var flags: [String]
        public var hex: String
        public var result: VectorResult
        public var error: String?
        public var offset: Int?
        public var frame: Frame?
    }

    public struct Frame: Codable, Hashable, Sendable {
        public var header: FrameHeaderJSON
        /// The TLV bytes after decompression, as hex.
        public var payload: String
        public var tlv: [TLVFieldJSON]
        public var warnings: [String]
    }
}

extension FrameVectorFileJSON {
    /// The JSON form of `file`.
    public init(_ file: FrameVectorFile, generatorVersion: String) throws {
        let tests = file.tests
        let flags = Set(tests.flatMap(\.flags))
        try self.init(
            algorithm: "DECAF-WIRE-V1",
            schema: Self.schemaName,
            generatorVersion: generatorVersion,
            numberOfTests: tests.count,
            header: file.description + [
                "Each test is a byte stream (hex) fed to a receiver with its group's options, then the end of the stream.",
                "valid: exactly one frame decodes, equal to `frame`. invalid: the receiver reports `error` at `offset` (brief section 8).",
                "acceptable: the brief lets a receiver accept or reject; one that accepts decodes `frame`, one that rejects reports `error` at `offset`.",
            ],
            notes: Dictionary(uniqueKeysWithValues: VectorFlag.allCases.filter(flags.contains).map { ($0.rawValue, Note(description: $0.note)) }),
            testGroups: file.groups.map(Group.init)
        )
    }
}

extension FrameVectorFileJSON.Group {
    init(_ group: VectorGroup) throws {
        try self.init(
            name: group.name, type: "FrameDecode", comment: group.comment,
            options: FrameVectorFileJSON.Options(group.options),
            tests: group.tests.map(FrameVectorFileJSON.Test.init)
        )
    }
}

extension FrameVectorFileJSON.Options {
    public init(_ options: DecodeOptions) {
        self.init(
            bodyLimit: options.bodyLimit,
            depthLimit: options.tlv.depthLimit,
            allowDuplicateTags: options.tlv.allowsDuplicateTags,
            versionMajor: Int(options.version.major),
            highestMinor: Int(options.version.minor),
            acceptsEncryptedBodies: options.acceptsEncryptedBodies,
            timestampWindow: options.timestampWindow.map { Window(seconds: $0.seconds, now: $0.now) }
        )
    }

    /// The decode options these stand for.
    public var decodeOptions: DecodeOptions {
        DecodeOptions(
            bodyLimit: bodyLimit,
            version: ProtocolVersion(major: UInt8(versionMajor), minor: UInt8(highestMinor)),
            tlv: TLVOptions(depthLimit: depthLimit, allowsDuplicateTags: allowDuplicateTags),
            timestampWindow: timestampWindow.map { TimestampWindow(seconds: $0.seconds, now: $0.now) },
            acceptsEncryptedBodies: acceptsEncryptedBodies
        )
    }
}

extension FrameVectorFileJSON.Test {
    init(_ vector: FrameVector) throws {
        try self.init(
            tcId: vector.tcId, comment: vector.comment,
            requirements: vector.requirements.map(\.rawValue), flags: vector.flags.map(\.rawValue),
            hex: Hex.string(vector.bytes), result: vector.result,
            error: vector.expectation.refusal?.error.name, offset: vector.expectation.refusal?.offset,
            frame: vector.expectation.frame.map(FrameVectorFileJSON.Frame.init)
        )
    }
}

extension FrameVectorFileJSON.Frame {
    init(_ expected: ExpectedFrame) throws {
        try self.init(
            header: FrameHeaderJSON(expected.header),
            payload: Hex.string(expected.payload),
            tlv: TLVFieldJSON.laidOut(expected.fields),
            warnings: expected.warnings.map(\.rawValue)
        )
    }
}
