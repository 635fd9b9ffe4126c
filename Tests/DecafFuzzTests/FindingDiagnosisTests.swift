import DecafConformance
import DecafDiagnosis
@testable import DecafFuzz
import DecafWire
import Testing

/// How a campaign names a finding's cause, against models given as a table: one mistake that
/// gives the verdict alone, two together, never a guess between two that answer alike, never a
/// mistake for what the reference does too or what no model gives; and the fuzz report's
/// diagnosis built from the findings.
@Suite("fuzz finding diagnosis")
struct FindingDiagnosisTests {
    static let catalog: [CodecMistake] = [.checksumLittleEndian, .depthLimitOffByOne, .duplicateTagsAccepted, .timestampNotChecked]

    /// A diagnosis whose model answers input `n` with the verdict `table[n]` gives for the
    /// mistakes planted (sorted names joined by "+"; "" the reference), "right" otherwise.
    static func diagnosis(_ table: [Int: [String: String]]) -> FindingDiagnosis<Int> {
        FindingDiagnosis(catalog: catalog) { input, mistakes in
            let key = mistakes.map(\.name).sorted().joined(separator: "+")
            return Verdict(.fail, table[input]?[key] ?? "right")
        }
    }

    static func names(_ mistakes: [any CataloguedMistake]) -> [String] { mistakes.map(\.name) }

    @Test("one mistake alone; then two together, one of them named; the named tried first")
    func singleAndPair() {
        let diagnosis = Self.diagnosis([
            1: ["duplicate-tags-accepted": "ACK"],
            2: ["depth-limit-off-by-one+duplicate-tags-accepted": "ACK of both"],
        ])
        #expect(Self.names(diagnosis.cause(of: Verdict(.fail, "ACK"), for: 1, signature: "a")) == ["duplicate-tags-accepted"])
        #expect(Self.names(diagnosis.cause(of: Verdict(.fail, "ACK of both"), for: 2, signature: "b")) == ["depth-limit-off-by-one", "duplicate-tags-accepted"])
    }

    @Test("three together, two of them named: all three named; before the two are named, none is guessed")
    func triple() {
        let table = [
            1: ["duplicate-tags-accepted": "ACK"],
            2: ["depth-limit-off-by-one": "deep ACK"],
            3: ["depth-limit-off-by-one+duplicate-tags-accepted+timestamp-not-checked": "ACK of all three"],
        ]
        let early = Self.diagnosis(table)
        #expect(early.cause(of: Verdict(.fail, "ACK of all three"), for: 3, signature: "c").isEmpty)
        let diagnosis = Self.diagnosis(table)
        #expect(Self.names(diagnosis.cause(of: Verdict(.fail, "ACK"), for: 1, signature: "a")) == ["duplicate-tags-accepted"])
        #expect(Self.names(diagnosis.cause(of: Verdict(.fail, "deep ACK"), for: 2, signature: "b")) == ["depth-limit-off-by-one"])
        #expect(Self.names(diagnosis.cause(of: Verdict(.fail, "ACK of all three"), for: 3, signature: "c"))
                == ["depth-limit-off-by-one", "duplicate-tags-accepted", "timestamp-not-checked"])
        #expect(Self.names(diagnosis.namedCause(of: Verdict(.fail, "ACK of all three"), for: 3))
                == ["depth-limit-off-by-one", "duplicate-tags-accepted", "timestamp-not-checked"])
    }

    @Test("every choice of two of four, in order")
    func groups() {
        #expect(FindingDiagnosis<Int>.groups(of: [1, 3, 5, 7], size: 2) == [[1, 3], [1, 5], [1, 7], [3, 5], [3, 7], [5, 7]])
        #expect(FindingDiagnosis<Int>.groups(of: [1], size: 2).isEmpty)
    }

    @Test("what the reference gives too, or no model gives, is unexplained")
    func unexplained() {
        let diagnosis = Self.diagnosis([1: ["": "odd", "checksum-little-endian": "odd"]])
        #expect(diagnosis.cause(of: Verdict(.fail, "odd"), for: 1, signature: "a").isEmpty)
        #expect(diagnosis.cause(of: Verdict(.fail, "something else"), for: 1, signature: "b").isEmpty)
    }

    @Test("two mistakes that answer alike name neither; once another input names one, the finding is its")
    func ambiguous() {
        let diagnosis = Self.diagnosis([
            1: ["duplicate-tags-accepted": "left open", "timestamp-not-checked": "left open"],
            2: ["timestamp-not-checked": "ACK of an old frame"],
        ])
        #expect(diagnosis.cause(of: Verdict(.fail, "left open"), for: 1, signature: "open").isEmpty)
        #expect(diagnosis.namedCause(of: Verdict(.fail, "left open"), for: 1).isEmpty)
        #expect(Self.names(diagnosis.cause(of: Verdict(.fail, "ACK of an old frame"), for: 2, signature: "old")) == ["timestamp-not-checked"])
        #expect(Self.names(diagnosis.namedCause(of: Verdict(.fail, "left open"), for: 1)) == ["timestamp-not-checked"])
        // The same failure, met again, is judged against what is named since.
        #expect(Self.names(diagnosis.cause(of: Verdict(.fail, "left open"), for: 1, signature: "open")) == ["timestamp-not-checked"])
    }

    @Test("a signature names its mistakes, and the report's diagnosis counts a pair's finding under both")
    func report() {
        let diagnosis = Self.diagnosis([:])
        let signature = FuzzFinding.signature(of: [CodecMistake.depthLimitOffByOne, CodecMistake.duplicateTagsAccepted])
        #expect(Self.names(diagnosis.mistakes(in: signature)) == ["depth-limit-off-by-one", "duplicate-tags-accepted"])
        #expect(diagnosis.mistakes(in: "hang").isEmpty)

        var alone = FuzzReportTests.hang
        alone.defects = [CodecMistake.duplicateTagsAccepted]
        var pair = FuzzReportTests.hang
        pair.input = Array(pair.input.prefix(20))
        pair.defects = [CodecMistake.depthLimitOffByOne, CodecMistake.duplicateTagsAccepted]
        let found = FuzzReport.diagnosis(of: [alone, pair, FuzzReportTests.hang])
        #expect(found.headline == "2 defects explain 2 of 3 failures")
        #expect(found.defects.map(\.name) == ["duplicate-tags-accepted", "depth-limit-off-by-one"])
        #expect(found.defects[0].explains == ["fuzz.finding-1-hang", "fuzz.finding-2-hang"])
        #expect(found.defects[0].evidence.caseID == "fuzz.finding-2-hang", "the shortest input is the evidence")
        #expect(found.unexplained == ["fuzz.finding-3-hang"])
    }
}
