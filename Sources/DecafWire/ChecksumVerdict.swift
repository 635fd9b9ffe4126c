/// How a frame's stored checksum compares with the CRC-32 of its body: correct, or a mismatch
/// (CRC-2), which may be the known defect of the right CRC written little-endian (CRC-3). The one
/// place that rule is written, for errors, trees and JSON alike.
public enum ChecksumVerdict: Hashable, Sendable {
    /// The stored checksum is the body's CRC-32.
    case correct
    /// It is not; `byteSwapped` when it is the CRC written little-endian (CRC-3).
    case mismatch(byteSwapped: Bool)

    /// The verdict on a frame whose header says `stored` and whose body's CRC-32 is `computed`.
    public init(stored: UInt32, computed: UInt32) {
        self = stored == computed ? .correct : .mismatch(byteSwapped: stored.byteSwapped == computed)
    }

    /// True for the right CRC written little-endian (CRC-3).
    public var isByteSwapped: Bool { self == .mismatch(byteSwapped: true) }
}
