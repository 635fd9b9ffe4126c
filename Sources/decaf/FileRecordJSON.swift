/// `decaf dissect --json` with several files: the line before each file's records, naming it.
struct FileRecordJSON: Encodable {
    var path: String
    var record = "file"
}
