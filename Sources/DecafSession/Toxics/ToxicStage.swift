/// What a toxic keeps in one direction of one connection, from one chunk to the next.
public struct ToxicStage: Sendable {
    /// The latest time the toxic let something out: later ones never overtake it.
    public var last: Duration = .zero
    /// Bytes let through so far (limit_data).
    public var passed = 0
    /// Nothing more gets through (limit_data reached, reset_peer started).
    public var shut = false

    /// `bytes` let out at `time` or, to keep their place behind what went before, later.
    public mutating func keepingOrder(_ bytes: [UInt8], at time: Duration) -> [ToxicPipe.Passage] {
        last = max(time, last)
        return [.bytes(bytes, at: last)]
    }
}
