@testable import DecafProxy
import DecafSession
import Testing

/// Every catalog of toxics is derived from `Toxic.kinds`: a kind added there, in a file of its
/// own, is named, read and shown everywhere, which these tests check for every kind.
@Suite("toxic kinds")
struct ToxicKindTests {
    /// A toxic of every kind, its main attribute set to 1 and the others read as toxiproxy's API
    /// reads a missing attribute (zero).
    static let everyKind: [Toxic] = Toxic.kinds.map { kind in
        try! ToxicCatalog.toxic(type: kind.type, attributes: kind.mainAttribute.map { [$0: "1"] } ?? [:], bareUnit: 0.001, lenient: true)
    }

    @Test("each kind has a name of its own, and its main attribute is one it shows")
    func namesAndMainAttributes() {
        #expect(Set(ToxicCatalog.types).count == Toxic.kinds.count)
        for toxic in Self.everyKind {
            guard let main = ToxicCatalog.mainAttribute[toxic.type] else { continue }
            #expect(toxic.kind.attributes[main] != nil, "\(toxic.type) shows no \(main)")
        }
    }

    @Test("each kind reads back what the control API shows of it")
    func attributesRoundTrip() throws {
        for toxic in Self.everyKind {
            let shown = ProxyToxicJSON(ProxyToxic(name: "t", stream: .upstream, toxic: toxic))
            #expect(shown.type == toxic.type)
            #expect(try shown.toxic() == toxic, "\(toxic)")
        }
    }

    @Test("an attribute a kind does not have is refused with its name, unless read leniently as toxiproxy's API does")
    func unknownAttributes() throws {
        for kind in Toxic.kinds {
            let attributes = (kind.mainAttribute.map { [$0: "1"] } ?? [:]).merging(["colour": "blue"]) { first, _ in first }
            #expect(throws: ToxicProblem.self) { try ToxicCatalog.toxic(type: kind.type, attributes: attributes, bareUnit: 1) }
            #expect(throws: Never.self) { try ToxicCatalog.toxic(type: kind.type, attributes: attributes, bareUnit: 1, lenient: true) }
        }
        let refusal = #expect(throws: ToxicProblem.self) { try ToxicCatalog.toxic(type: "latency", attributes: ["latency": "1s", "colour": "blue"]) }
        #expect(refusal?.description == "latency has no attribute 'colour'")
    }
}
