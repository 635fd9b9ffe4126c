import Foundation

/// One JSON object on one line, keys sorted: what every `--json` output and the testee protocol
/// print.
public enum JSONLine {
    public static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            // Only a non-finite floating-point number fails to encode; none is ever printed.
            return #"{"error":"this record cannot be written as JSON"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}
