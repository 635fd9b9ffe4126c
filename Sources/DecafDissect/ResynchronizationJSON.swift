/// The `--json` form of a resynchronization note.
public struct ResynchronizationJSON: Codable, Hashable, Sendable {
    public var record = "resync"
    public var skipped: Int
    /// Stream offset of the next frame; absent when none followed.
    public var resumedAt: Int?
}
