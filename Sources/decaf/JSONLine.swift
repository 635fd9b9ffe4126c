import Foundation

/// One JSON object on one line, keys sorted, as every `--json` output of the command line prints.
enum JSONLine {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding cannot fail: these values hold no non-finite floating-point numbers.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }
}
