/// A campaign's name in `--sync-dir`: one folder name, as afl-fuzz's `-S NAME` takes it (letters,
/// digits, `-` and `_`, at most 64).
enum SyncName {
    @Sendable static func parse(_ text: String) throws(ArgumentProblem) -> String {
        guard !text.isEmpty, text.utf8.count <= 64,
              text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else { throw ArgumentProblem("give a folder name of letters, digits, - and _ (at most 64), as afl-fuzz -S takes") }
        return text
    }
}
