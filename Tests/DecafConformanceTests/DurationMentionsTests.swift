@testable import DecafConformance
import Testing

/// How verdicts of one behaviour on two clocks are told the same: their words, and the durations
/// they mention within a tolerance.
@Suite("duration mentions")
struct DurationMentionsTests {
    @Test("a number that starts a word, then ms or s that ends one, is a duration; the rest is words", arguments: [
        ("sent again after 271 ms; its ACK timeout is 400 ms", "sent again after #; its ACK timeout is #", [271.0, 400]),
        ("gave up after 2.5 s (1.5s, 20ms)", "gave up after # (#, #)", [2500, 1500, 20]),
        ("x12 ms, 12 msg, 5 sessions, v1.0 s2, 3 s_x", "x12 ms, 12 msg, 5 sessions, v1.0 s2, 3 s_x", []),
        ("at 7 s", "at #", [7000]),
        ("1 ms", "#", [1]),
        ("waits ≤5 ms, 2×400 ms", "waits ≤#, 2×#", [5, 400]),
    ])
    func mentions(text: String, words: String, milliseconds: [Double]) {
        let mentions = DurationMentions(text)
        #expect(String(decoding: mentions.words, as: UTF8.self) == words)
        #expect(mentions.milliseconds == milliseconds)
    }

    @Test("verdicts agree when their words are the same and each duration is within the tolerance of the other")
    func agreement() {
        let verdict = Verdict(.fail, "followed up after 200 ms", expected: "400 ms", actual: "200 ms")
        #expect(verdict.isSame(as: Verdict(.fail, "followed up after 231 ms", expected: "400 ms", actual: "231 ms")))
        #expect(verdict.isSame(as: Verdict(.fail, "followed up after 0.25 s", expected: "400 ms", actual: "250 ms")))
        #expect(!verdict.isSame(as: Verdict(.fail, "followed up after 1653 ms", expected: "400 ms", actual: "1653 ms")))
        #expect(!verdict.isSame(as: Verdict(.fail, "answered after 200 ms", expected: "400 ms", actual: "200 ms")))
        #expect(!verdict.isSame(as: Verdict(.fail, "followed up after 200 ms and 3 ms", expected: "400 ms", actual: "200 ms")))
    }
}
