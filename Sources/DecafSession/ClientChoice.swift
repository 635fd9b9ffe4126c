import DecafWire

/// A choice the brief leaves a client: a legal client may make it or not, and the client suite
/// and fuzzer judge it the same (`decaf testee client --choice`, the zoo of legal clients).
public enum ClientChoice: String, CaseIterable, Hashable, Sendable {
    /// It is configured to allow a tag repeated in one sequence, and takes such a frame (TLV-3).
    case takesDuplicateTags = "takes-duplicate-tags"
    /// It refuses a frame whose timestamp is more than 60 s from its clock (TS-1: a MAY).
    case timestampWindow = "timestamp-window"
    /// It blames the first field found too deep, so it takes a container one past the depth limit
    /// whose value is empty (TLV-2, interpretation 3): `ReceiverChoice.emptyContainerPastLimit` in a client.
    case emptyContainerPastLimit = "empty-container-past-limit"
    /// It judges a header only once all 28 bytes of it are in, so a stream that ends within a
    /// header is cut short, whatever field it got wrong (interpretation 1): `ReceiverChoice.wholeHeader` in a client.
    case wholeHeader = "whole-header"

    /// The window of `timestampWindow`, in seconds: the brief's default.
    public static let windowSeconds: UInt32 = 60

    /// What the choice is, in a line.
    public var summary: String {
        switch self {
        case .takesDuplicateTags: "allows a tag repeated in one sequence: takes and delivers such a frame (TLV-3)"
        case .timestampWindow: "refuses a frame whose timestamp is more than 60 s from its clock as TIMESTAMP_OUT_OF_WINDOW (TS-1)"
        case .emptyContainerPastLimit: ReceiverChoice.emptyContainerPastLimit.summary
        case .wholeHeader: ReceiverChoice.wholeHeader.summary
        }
    }
}
