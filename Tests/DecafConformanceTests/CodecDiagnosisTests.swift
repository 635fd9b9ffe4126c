@testable import DecafConformance
import DecafDiagnosis
import DecafWire
import DecafVectors
import Testing

/// The codec suite's diagnosis against codecs with mistakes planted: each catalogued mistake alone
/// is named and nothing else, two or three together are named exactly, and a mistake not in the
/// catalog is left unexplained rather than blamed on one that is. The testees here are models
/// answering in-process (`CodecModel`); the command-line tests run one as a process.
@Suite("codec diagnosis")
struct CodecDiagnosisTests {
    /// The verdicts a codec answering with `answer` gets in every codec case.
    static func results(_ answer: (CodecCase) -> TesteeMessage.Response) -> [CaseResult] {
        CodecCase.all.map { codecCase in
            CaseResult(testCase: codecCase.conformanceCase, verdict: CodecJudge(codecCase: codecCase).judge(answer(codecCase)), transcript: [], duration: .zero)
        }
    }

    static func diagnosis(_ mistakes: Set<CodecMistake>) -> Diagnosis {
        let model = CodecModel(mistakes)
        return CodecDiagnosis.diagnose(cases: CodecCase.all, results: results { model.answer(to: $0) })
    }

    @Test("the reference codec fails nothing, so nothing is diagnosed")
    func reference() {
        let diagnosis = Self.diagnosis([])
        #expect(diagnosis.failures == 0 && diagnosis.defects.isEmpty)
    }

    @Test("each mistake alone is the one defect named, explaining every failure, with the shortest as evidence", arguments: CodecMistake.allCases)
    func alone(_ mistake: CodecMistake) throws {
        let diagnosis = Self.diagnosis([mistake])
        #expect(diagnosis.defects.map(\.name) == [mistake.name])
        #expect(diagnosis.failures > 0 && diagnosis.unexplained.isEmpty, "\(diagnosis.unexplained)")
        let defect = try #require(diagnosis.defects.first)
        #expect(defect.explains.count == diagnosis.failures && defect.explains.contains(defect.evidence.caseID))
        let sizes = CodecCase.all.filter { defect.explains.contains($0.id) }.map(\.inputSize)
        #expect(defect.evidence.bytes == sizes.min())
    }

    /// Sets of mistakes in which each shows: without any one of them the codec answers otherwise.
    /// (Some do not: a codec that verifies no checksum reads it in no byte order; one that checks
    /// neither major nor minor is one that checks no version.)
    static let combinations: [[CodecMistake]] = {
        let all = CodecMistake.allCases
        let versions: Set<CodecMistake> = [.versionMajorNotChecked, .versionMinorNotChecked, .versionNotChecked]
        let candidates = all.indices.map { [all[$0], all[($0 + 7) % all.count]] }
            + all.indices.filter { $0 % 3 == 0 }.map { [all[$0], all[($0 + 5) % all.count], all[($0 + 11) % all.count]] }
        return Array(candidates.filter { combination in
            guard Set(combination).intersection(versions).count < 2 else { return false }
            let verdicts = results { CodecModel(Set(combination)).answer(to: $0) }.map(\.verdict)
            return combination.allSatisfy { mistake in
                results { CodecModel(Set(combination).subtracting([mistake])).answer(to: $0) }.map(\.verdict) != verdicts
            }
        }.prefix(20))
    }()

    @Test("two or three mistakes together are named exactly, each with the failures only it explains")
    func together() {
        #expect(Self.combinations.count == 20)
        for combination in Self.combinations {
            let diagnosis = Self.diagnosis(Set(combination))
            #expect(Set(diagnosis.defects.map(\.name)) == Set(combination.map(\.name)), "\(combination)")
            #expect(diagnosis.unexplained.isEmpty, "\(combination): \(diagnosis.unexplained)")
        }
    }

    /// A codec whose errors all come at offset 0: a mistake the catalog does not hold.
    static func zeroOffsets(_ response: TesteeMessage.Response) -> TesteeMessage.Response {
        var changed = response
        if changed.result == "error" { changed.offset = 0 }
        return changed
    }

    @Test("a mistake not in the catalog is unexplained, and no catalogued mistake is blamed for it")
    func notCatalogued() {
        let reference = CodecModel()
        let diagnosis = CodecDiagnosis.diagnose(cases: CodecCase.all, results: Self.results { Self.zeroOffsets(reference.answer(to: $0)) })
        #expect(diagnosis.failures > 0)
        #expect(diagnosis.defects.isEmpty, "\(diagnosis.defects.map(\.name))")
        #expect(diagnosis.unexplained.count == diagnosis.failures)
    }

    @Test("beside a mistake not in the catalog, a catalogued one is named for its own failures only")
    func besideNotCatalogued() throws {
        let model = CodecModel([.depthLimitOffByOne])
        let diagnosis = CodecDiagnosis.diagnose(cases: CodecCase.all, results: Self.results { Self.zeroOffsets(model.answer(to: $0)) })
        #expect(diagnosis.defects.map(\.name) == [CodecMistake.depthLimitOffByOne.name])
        // Where both act (a refusal of a depth it misjudges, at offset 0), neither model answers so.
        let explains = try #require(diagnosis.defects.first).explains
        let alone = try #require(Self.diagnosis([.depthLimitOffByOne]).defects.first).explains
        #expect(!explains.isEmpty && Set(explains).isSubset(of: alone))
        #expect(diagnosis.unexplained.count == diagnosis.failures - explains.count)
    }

    @Test("every required codec case fails against a catalogued mistake (decaf conform coverage --targets), and each mistake fails one")
    func targets() {
        let coverage = CodecTargets()
        #expect(coverage.missing.isEmpty)
        let used = Set(coverage.targets.filter { $0.level == .required }.flatMap(\.mistakes))
        #expect(used == Set(CodecMistake.allCases))
    }

    @Test("a mistake outside CodecModel.encodingMistakes writes the reference's bytes for every encode case; each inside alters some")
    func encodingMistakes() {
        let frames = CodecCase.all.compactMap { codecCase -> ExpectedFrame? in
            if case let .encode(frame) = codecCase.task { frame } else { nil }
        }
        let reference = frames.map { CodecModel().encode($0.header, payload: $0.payload) }
        for mistake in CodecMistake.allCases {
            let model = CodecModel([mistake])
            let alters = frames.indices.contains { model.encode(frames[$0].header, payload: frames[$0].payload) != reference[$0] }
            #expect(alters == model.altersEncoding, "\(mistake)")
        }
    }

    @Test("the model's answer to a case is its answer to the case's request, hex and all, with and without each mistake")
    func answerWithoutHex() {
        for codecCase in CodecCase.all {
            let request = TesteeMessage.request(for: codecCase)
            // Every mistake on the cases under 64 KiB; the reference on the 10 MiB ones too.
            let models = codecCase.inputSize < 65536 ? [CodecModel()] + CodecMistake.allCases.map { CodecModel([$0]) } : [CodecModel()]
            for model in models {
                #expect(model.answer(to: codecCase) == model.answer(request), "\(codecCase.id), \(model.mistakes)")
            }
        }
    }
}
