import DecafDiagnosis

extension CodecMistake {
    /// The first catalogued mistake whose codec answers `codecCase` as `response` does, where the
    /// reference answers otherwise: the cause of that answer, as far as one input can tell.
    public static func cause(of response: TesteeMessage.Response, to codecCase: CodecCase) -> CodecMistake? {
        guard !CodecModel().answer(to: codecCase).answers(like: response) else { return nil }
        return allCases.first { CodecModel([$0]).answer(to: codecCase).answers(like: response) }
    }

}
