/// One JSON object on one line, keys sorted: what every `--json` output and the testee protocol
/// print.
public enum JSONLine {
    public static func encode(_ value: some Encodable) -> String {
        // Only a non-finite floating-point number fails to encode; none is ever printed.
        return (try? SortedJSONEncoder.encode(value)) ?? #"{"error":"this record cannot be written as JSON"}"#
    }
}
