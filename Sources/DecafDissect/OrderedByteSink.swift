/// Where a listing's bytes go, in the order they are written: standard output for the command
/// (`StandardOutputFile`), memory for tests and library users (`MemoryByteSink`). A sink keeps the
/// first write it could not complete (a full disk) and writes nothing after it, so a listing is
/// a prefix of what it should be, never a listing with a hole.
public protocol OrderedByteSink: Sendable {
    /// Writes `bytes` after everything written before; nothing once a write failed.
    mutating func write(_ bytes: UnsafeRawBufferPointer)
    /// The error number of the first write the sink could not complete.
    var failure: Int32? { get }
}
