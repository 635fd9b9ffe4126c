import DecafVectors
import DecafWire

/// A case for a codec under test, made from a golden vector: decode these bytes with these
/// options, or encode this header and payload. The vectors are the catalog's codec cases, so the
/// decoder driver and `decaf conform vectors` share them.
public struct CodecCase: Hashable, Sendable {
    public enum Operation: String, Hashable, Sendable, Codable {
        case decode
        case encode
    }

    /// What the testee is asked: decode the vector's bytes, or encode this frame.
    public enum Task: Hashable, Sendable {
        case decode
        case encode(ExpectedFrame)
    }

    public var task: Task
    public var vector: FrameVector
    public var options: DecodeOptions
    public var group: String

    public init(task: Task, vector: FrameVector, options: DecodeOptions, group: String) {
        self.task = task
        self.vector = vector
        self.options = options
        self.group = group
    }

    public var operation: Operation {
        switch task {
        case .decode: .decode
        case .encode: .encode
        }
    }

    /// `codec.decode.<group>.<tcId>` or `codec.encode.<group>.<tcId>`: stable, as tcIds are.
    public var id: String { "codec.\(operation.rawValue).\(group).\(vector.tcId)" }

    /// The case as a conformance case, for selection and reports.
    public var conformanceCase: ConformanceCase {
        let what = operation == .decode ? vector.comment : "encode: \(vector.comment)"
        let level: ConformanceLevel = vector.result == .acceptable ? .optional : .required
        let bytes = switch task {
        case .decode: vector.bytes
        case let .encode(frame): frame.payload
        }
        return ConformanceCase(id, vector.requirements, level, what, steps: [
            .send(Transmission(label: "vector \(vector.tcId) (\(group))", bytes: bytes)),
        ])
    }

    /// Every codec case: a decode case per vector, and an encode case per valid vector whose bytes
    /// an encoder must reproduce (uncompressed: exactly; zlib: a body that inflates to the payload).
    /// Made once, as the vectors are.
    public static let all: [CodecCase] = FrameVectorFile.all.flatMap(\.groups).flatMap { group in
        group.tests.flatMap { vector -> [CodecCase] in
            var cases = [CodecCase(task: .decode, vector: vector, options: group.options, group: group.name)]
            if let frame = encodable(vector) { cases.append(CodecCase(task: .encode(frame), vector: vector, options: group.options, group: group.name)) }
            return cases
        }
    }

    /// CRC-32 of every codec case's ID and bytes, as `0x` and 8 hex digits.
    public static var checksum: String {
        var canonical: [UInt8] = []
        for item in all {
            canonical += Array(item.id.utf8) + [0x1F] + item.vector.bytes + [0x1E]
        }
        return Hex.format(CRC32.checksum(canonical), width: 8)
    }

    /// The frame an encoder must turn into the vector's bytes (or, compressed, into bytes that
    /// decode to it); nil for vectors no encoder should produce.
    private static func encodable(_ vector: FrameVector) -> ExpectedFrame? {
        guard case let .valid(frame) = vector.expectation, frame.header.encryptType != .aes256 else { return nil }
        if frame.header.compressType == .zlib { return frame }
        var encoder = FrameEncoder()
        return frame.header.compressType == .none && encoder.encode(frame.header, payload: frame.payload) == vector.bytes ? frame : nil
    }
}

extension CodecCase {
    /// The verdict on `response` as the codec suite judges it against this case's vector.
    public func judge(_ response: TesteeMessage.Response) -> Verdict {
        CodecJudge(codecCase: self).judge(response)
    }
}
