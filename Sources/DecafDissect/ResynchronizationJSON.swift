/// The `--json` form of a resynchronization note.
public struct ResynchronizationJSON: Codable, Hashable, Sendable {
    public var record = "resync"
    public var skipped: Int
    /// Stream offset of the next frame; absent when none followed.
    public var resumedAt: Int?
    /// Stream offset of the first skipped byte, and the skipped bytes as hex, when the dissector
    /// had the stream at hand (hex and binary input), so `decaf build --from` can put them back.
    public var from: Int?
    public var hex: String?
}
