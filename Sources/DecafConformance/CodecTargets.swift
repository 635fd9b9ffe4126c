import DecafDiagnosis
/// The codec suite's own mutation coverage: for each case, the catalogued mistakes
/// (`CodecMistake`) whose codec fails it, each a target that breaks what the case checks. A
/// required case no mistake fails would pass a codec that gets its rule wrong: a case that proves
/// nothing until a mistake in the catalog shows it. Pure: each mistake's codec is the reference
/// with that mistake planted (`CodecModel`), judged as a testee is.
public struct CodecTargets: Sendable {
    /// Each case's targets, in the catalog's order, by case ID.
    public let targets: [(id: String, level: ConformanceLevel, mistakes: [CodecMistake])]

    public init() {
        let verdicts = CodecDiagnosis.catalogVerdicts.alone
        targets = CodecCase.all.map { codecCase in
            let failing = CodecMistake.allCases.filter { verdicts[$0]?[codecCase.id]?.kind.isFailure == true }
            return (codecCase.id, codecCase.conformanceCase.level, failing)
        }
    }

    /// The required cases no mistake fails.
    public var missing: [String] {
        targets.filter { $0.level == .required && $0.mistakes.isEmpty }.map(\.id)
    }
}
