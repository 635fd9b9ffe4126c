import DecafJSON
import Foundation
import Testing

/// The one JSON encoder must give exactly the bytes Foundation's JSONEncoder gives with sorted keys
/// and unescaped slashes, on one line and pretty-printed: the fixture files and reports are
/// compared byte for byte with what was committed when Foundation wrote them.
@Suite("Sorted JSON encoder")
struct SortedJSONEncoderTests {
    static func foundation(_ value: some Encodable, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    struct Nested: Codable {
        var name = "a/b \"quoted\" \\ tab\t"
        var empty: [Int] = []
        var emptyObject: [String: Int] = [:]
        var numbers = [0, -1, 4_294_967_295]
        var doubles = [0.5, 1.0, -0.0, 1e20, 123.456]
        var flag = true
        var missing: String? = nil
        var inner: [Inner] = [Inner(), Inner(zeta: "é", alpha: [[], [1]])]
        var map = ["b": 2, "a": 1, "Z": 0, "_": 3]
    }

    struct Inner: Codable {
        var zeta = "z"
        var alpha: [[Int]] = [[1, 2], []]
    }

    @Test("one line and pretty, the bytes Foundation writes", arguments: [false, true])
    func matchesFoundation(pretty: Bool) throws {
        for value in [Nested(), Nested(name: "", empty: [1], emptyObject: ["k": 1], numbers: [], doubles: [], flag: false, missing: "x", inner: [], map: [:])] {
            #expect(try SortedJSONEncoder.encode(value, pretty: pretty) == Self.foundation(value, pretty: pretty))
        }
        #expect(try SortedJSONEncoder.encode([String](), pretty: pretty) == Self.foundation([String](), pretty: pretty))
        #expect(try SortedJSONEncoder.encode(["k": [String: Int]()], pretty: pretty) == Self.foundation(["k": [String: Int]()], pretty: pretty))
    }

    @Test("a value with no JSON form is refused, not written")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode([Double.nan]) }
        #expect(JSONLine.encode([Double.infinity]).contains("error"))
    }
}
