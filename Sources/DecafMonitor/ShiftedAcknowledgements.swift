import DecafWire

/// The hypothesis that an end acknowledges each frame with the sequence counter plus one (a
/// mistake implementations make; the reference peer's `ack-wrong-sequence`): the same ACKs
/// matched to the frames whose counter is one less. When it explains every ACK of a connection
/// that the plain reading could not, the end's ACK failures are one defect, said once, instead of
/// the symptoms it leaves (ACKs of sequences never sent, second ACKs, frames skipped).
struct ShiftedAcknowledgements {
    private var ledger = DirectionLedger()
    /// ACKs the hypothesis matches to a frame awaiting one.
    private(set) var matched = 0
    /// False once an ACK did not read so: the hypothesis is dropped, and its frames with it (a
    /// correct end drops it at its first ACK, so it costs nothing after).
    private var isAlive = true
    /// The first match: the ACK and the frame it answers.
    private(set) var first: (ack: MonitoredFrame, frame: DirectionLedger.SentFrame)?

    /// A frame sent that asks for an ACK.
    mutating func sent(_ frame: DirectionLedger.SentFrame, order: Int, key: UInt64) {
        if isAlive { ledger.await(frame, order: order, key: key) }
    }

    /// An ACK of the other end, read as answering the frame one counter below.
    mutating func acknowledged(_ ack: MonitoredFrame, _ header: FrameHeader) {
        guard isAlive else { return }
        guard header.sequence.counter > 0 else { return drop() }
        var below = header
        below.sequence = SequenceNumber(rawValue: header.sequence.rawValue - 1)
        switch ledger.acknowledge(DirectionLedger.key(below)) {
        case let .first(sent):
            matched += 1
            if first == nil { first = (ack, sent.frame) }
        case .again, .none:
            drop()
        }
    }

    private mutating func drop() {
        isAlive = false
        ledger = DirectionLedger()
    }

    /// Whether the hypothesis explains every ACK, and every frame its reading leaves without one
    /// was sent after the last frame acknowledged.
    var explainsEverything: Bool {
        isAlive && matched >= 2 && !ledger.hasForgotten && ledger.overflow == 0
            && ledger.unacknowledged.allSatisfy { $0.order > ledger.readThrough }
    }
}
