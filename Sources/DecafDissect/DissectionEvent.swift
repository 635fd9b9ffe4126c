/// What a dissector reports, in stream order.
public enum DissectionEvent: Sendable {
    /// A frame, good or bad.
    case frame(FrameRecord)
    /// After a bad frame, bytes were passed over: `skipped` of them, to reach the next magic at
    /// `resumedAt`, or to the end of the stream when it is nil. Not reported when nothing was
    /// skipped (a bad but whole frame followed directly by the next one, or by the end).
    case resynchronized(skipped: Int, resumedAt: Int?)
}
