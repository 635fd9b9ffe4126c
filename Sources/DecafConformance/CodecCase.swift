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

    public var operation: Operation
    public var vector: FrameVector
    public var options: DecodeOptions
    public var group: String

    /// `codec.decode.<group>.<tcId>` or `codec.encode.<group>.<tcId>`: stable, as tcIds are.
    public var id: String { "codec.\(operation.rawValue).\(group).\(vector.tcId)" }

    /// The case as a conformance case, for selection and reports.
    public var conformanceCase: ConformanceCase {
        let what = operation == .decode ? vector.comment : "encode: \(vector.comment)"
        let level: ConformanceLevel = vector.result == .acceptable ? .optional : .required
        return ConformanceCase(id, vector.requirements, level, what, steps: [
            .send(Transmission(label: "vector \(vector.tcId) (\(group))", bytes: operation == .decode ? vector.bytes : vector.expected?.payload ?? [])),
        ])
    }

    /// Every codec case: a decode case per vector, and an encode case per valid vector whose bytes
    /// an encoder must reproduce (uncompressed: exactly; zlib: a body that inflates to the payload).
    public static var all: [CodecCase] {
        FrameVectorFile.all.flatMap(\.groups).flatMap { group in
            group.tests.flatMap { vector -> [CodecCase] in
                var cases = [CodecCase(operation: .decode, vector: vector, options: group.options, group: group.name)]
                if isEncodable(vector) { cases.append(CodecCase(operation: .encode, vector: vector, options: group.options, group: group.name)) }
                return cases
            }
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

    private static func isEncodable(_ vector: FrameVector) -> Bool {
        guard vector.result == .valid, let expected = vector.expected, expected.header.encryptType != .aes256 else { return false }
        if expected.header.compressType == .zlib { return true }
        var encoder = FrameEncoder()
        return expected.header.compressType == .none && encoder.encode(expected.header, payload: expected.payload) == vector.bytes
    }
}
