import DecafConformance
import DecafWire
import Testing

/// A run gives each case execution a session of its own in place of the catalog's, so a target
/// that remembers repeats across connections never takes one case's frames for another's. That
/// holds only if every frame the catalog sends in its own session is one the run rewrites.
@Suite("the catalog's sessions")
struct CatalogSessionTests {
    @Test("every frame the catalog sends in session 0x444C is stamped, so the run can give it its own session")
    func everyFrameInTheCatalogsSessionIsStamped() {
        let catalogSession = SessionID(rawValue: 0x444C)
        var unstamped: [String] = []
        for item in ConformanceCatalog().cases {
            for transmission in item.transmissions {
                let inSession = Transmission.headers(in: transmission.bytes).filter { $0.sessionID == catalogSession }.count
                if inSession > transmission.stamps.count { unstamped.append("\(item.id): \(transmission.label)") }
            }
        }
        #expect(unstamped == [])
    }

    @Test("a stamped frame takes the run's session and clock; a TS-1 frame keeps its timestamp")
    func stamping() {
        var encoder = FrameEncoder()
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: 1), timestamp: 5,
                                 sessionID: SessionID(rawValue: 0x444C))
        let bytes = encoder.encode(header, fields: [TLVField(tag: .text, text: "hi")])
        let run = (from: SessionID(rawValue: 0x444C), to: SessionID(rawValue: 0x4401))
        let stamped = Transmission(label: "", bytes: bytes, stamps: [Transmission.Stamp(headerOffset: 0)]).bytes(at: 1_700_000_000, replacing: run)
        let kept = Transmission(label: "", bytes: bytes, stamps: [Transmission.Stamp(headerOffset: 0, setsClock: false)]).bytes(at: 1_700_000_000, replacing: run)
        #expect(Transmission.headers(in: stamped).map { [$0.sessionID.rawValue, UInt16(truncatingIfNeeded: $0.timestamp)] } == [[0x4401, UInt16(truncatingIfNeeded: 1_700_000_000)]])
        #expect(Transmission.headers(in: kept).map(\.timestamp) == [5] && Transmission.headers(in: kept).map(\.sessionID.rawValue) == [0x4401])
        #expect(stamped.suffix(from: FrameHeader.size) == bytes.suffix(from: FrameHeader.size))
    }
}
