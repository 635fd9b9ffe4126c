import DecafDiagnosis
import DecafJSON
import DecafNIO
import DecafWire
import Foundation

/// The run as JSON (`--json`): the suite version, the catalog checksum, the target, the summary
/// counts and every case with its verdict and the bytes exchanged, hex-encoded.
public struct ConformanceRunJSON: Encodable {
    struct Case: Encodable {
        var id: String
        var level: String
        var section: String
        var requirements: [String]
        var summary: String
        var verdict: String
        var reason: String
        var expected: String
        var actual: String
        var brokenRequirements: [String]
        /// Whether a failure of the case decides the exit status (`CaseResult.countsAsRequired`).
        var countsAsRequired: Bool
        var durationMilliseconds: Double
        var runs: [String]
        var transcript: [Entry]
        /// The defect that explains the failure, by its mistake's name.
        var explainedBy: String?
    }

    /// The diagnosis: the defects, each once, and the failures none explains.
    struct DiagnosisJSON: Encodable {
        struct DefectJSON: Encodable {
            var name: String
            var cause: String
            var requirements: [String]
            var fix: String
            var explains: [String]
            var evidence: EvidenceJSON
        }

        struct EvidenceJSON: Encodable {
            var caseId: String
            var bytes: Int
            var expected: String
            var actual: String
        }

        var headline: String
        var failures: Int
        var explained: Int
        var defects: [DefectJSON]
        var unexplained: [String]
        /// What the diagnosis cost, part of the run's duration.
        var durationMilliseconds: Double

        init(_ diagnosis: Diagnosis, duration: Duration) {
            durationMilliseconds = ConformanceRunJSON.milliseconds(duration)
            headline = diagnosis.headline
            failures = diagnosis.failures
            explained = diagnosis.explained
            unexplained = diagnosis.unexplained
            defects = diagnosis.defects.map { defect in
                DefectJSON(name: defect.name, cause: defect.cause, requirements: defect.requirements.map(\.rawValue), fix: defect.fix,
                           explains: defect.explains,
                           evidence: EvidenceJSON(caseId: defect.evidence.caseID, bytes: defect.evidence.bytes,
                                                  expected: defect.evidence.expected, actual: defect.evidence.actual))
            }
        }
    }

    /// Bytes sent or received. Up to 4 KiB they are all in `hex`; a bigger write is summarised, so
    /// a 10 MiB body does not make a report of tens of megabytes: its length, its CRC-32, the first
    /// 2 KiB in `hex` and the last 64 bytes in `tailHex`.
    struct Entry: Encodable {
        var direction: String
        var milliseconds: Double
        var label: String?
        var connection: Int?
        var length: Int
        var hex: String
        var tailHex: String?
        var crc32: String?
        /// For the entry that stands for what a bounded transcript did not keep: its bytes.
        var notKept: Int?
        /// For a line the testee reported, and what the suite noted (a close, a reset, an exit,
        /// the end of standard error): the text itself.
        var text: String?

        static let shownWhole = 4096
        static let head = 2048
        static let tail = 64

        init(_ entry: TranscriptEntry) {
            direction = entry.direction.rawValue
            milliseconds = ConformanceRunJSON.milliseconds(entry.time)
            label = entry.label
            connection = entry.connection
            notKept = entry.notKept > 0 ? entry.notKept : nil
            if entry.direction == .reported || entry.direction == .noted { text = String(decoding: entry.bytes, as: UTF8.self) }
            length = entry.bytes.count
            guard length > Self.shownWhole else {
                hex = Hex.string(entry.bytes)
                return
            }
            hex = Hex.string(entry.bytes.prefix(Self.head))
            tailHex = Hex.string(entry.bytes.suffix(Self.tail))
            crc32 = Hex.word(CRC32.checksum(entry.bytes))
        }
    }

    var tool: String
    var suiteVersion: String
    var catalogChecksum: String
    var kind: String
    var target: String
    var targetVersion: String?
    var targetFeatures: UInt16?
    var targetNote: String?
    var summary: String
    /// False when the run stopped before every case selected ran; `stop` says why.
    var complete: Bool
    var planned: Int
    var stop: String?
    var counts: [String: Int]
    var exitStatus: Int32
    var unexpectedFailures: [String]
    var baselineNowPassing: [String]?
    var baselineUnknown: [String]?
    var flaky: [String]
    var diagnosis: DiagnosisJSON?
    var cases: [Case]

    public init(_ run: ConformanceRun) {
        tool = run.tool
        suiteVersion = run.suiteVersion
        catalogChecksum = run.catalogChecksum
        kind = run.kind.rawValue
        target = run.target
        targetVersion = run.identity.map { "\($0.version)" }
        targetFeatures = run.identity?.features.rawValue
        targetNote = run.identity?.note
        summary = run.summaryLine
        complete = run.isComplete
        planned = run.planned
        stop = run.stop?.description
        counts = Dictionary(uniqueKeysWithValues: run.counts.map { ($0.key.rawValue, $0.value) })
        exitStatus = run.exitStatus
        unexpectedFailures = run.unexpectedFailures.map(\.testCase.id)
        baselineNowPassing = run.baseline?.nowPassing
        baselineUnknown = run.baseline?.unknown
        flaky = run.flakyResults.map(\.testCase.id)
        diagnosis = run.diagnosis.map { DiagnosisJSON($0, duration: run.diagnosisDuration) }
        cases = run.results.map { result in
            Case(
                id: result.testCase.id, level: result.testCase.level.rawValue, section: result.testCase.section.title,
                requirements: result.testCase.requirements.map(\.rawValue), summary: result.testCase.summary,
                verdict: result.verdict.kind.rawValue, reason: result.verdict.reason, expected: result.verdict.expected,
                actual: result.verdict.actual, brokenRequirements: result.verdict.kind.isFailure ? result.verdict.requirements.map(\.rawValue) : [],
                countsAsRequired: result.countsAsRequired,
                durationMilliseconds: Self.milliseconds(result.duration), runs: result.runs.map(\.rawValue),
                transcript: result.transcript.map(Entry.init), explainedBy: run.diagnosis?.defect(explaining: result.testCase.id)?.name
            )
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        (DurationText.milliseconds(duration) * 1000).rounded() / 1000
    }

    /// The JSON text, keys sorted.
    public func text() throws -> String {
        try SortedJSONEncoder.encode(self, pretty: true) + "\n"
    }
}
