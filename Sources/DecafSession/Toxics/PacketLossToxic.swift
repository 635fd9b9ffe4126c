/// Decaf's `packet_loss`: what IP packet loss does to a TCP stream, which never loses bytes: each
/// chunk is lost with `probability` and comes when the sender's retransmission gets through, after
/// `retransmissionTimeout` (`rto`, 200 ms unless given), doubled for each retransmission lost
/// too; nothing behind it overtakes it (head-of-line blocking).
public struct PacketLossToxic: ToxicKind {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "packet_loss"
    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute: String? = "probability"
    /// The chance, 0 to 1, that a segment is lost.
    public var probability: Double
    /// How long a lost segment takes to come again, as TCP resends it.
    public var retransmissionTimeout: Duration

    /// Loses a segment with `probability`, sent again after `retransmissionTimeout`.
    public init(probability: Double, retransmissionTimeout: Duration = .milliseconds(200)) {
        self.probability = probability
        self.retransmissionTimeout = retransmissionTimeout
    }

    /// Reads the toxic from `attributes`, taking each it knows.
    public init(_ attributes: inout ToxicAttributes) throws(ToxicProblem) {
        let probability = try attributes.probability("probability")
        let rto = try attributes.duration("rto", required: false)
        self.init(probability: probability, retransmissionTimeout: rto > .zero ? rto : .milliseconds(200))
    }

    /// Its attributes in toxiproxy's units, as the control API shows them.
    public var attributes: [String: ToxicAttributeValue] {
        ["probability": .number(probability), "rto": ToxicAttributes.milliseconds(retransmissionTimeout)]
    }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        // Retransmissions lost in a row, at most 8 (the wait then is 255 timeouts).
        var waited = Duration.zero
        var backoff = retransmissionTimeout
        var losses = 0
        while losses < 8, context.chosen(probability) {
            waited += backoff
            backoff *= 2
            losses += 1
        }
        return stage.keepingOrder(bytes, at: now + waited)
    }
}

extension Toxic {
    /// Holds back a segment with `probability` for `retransmissionTimeout`, as TCP under loss: late, never lost.
    public static func packetLoss(probability: Double, retransmissionTimeout: Duration) -> Toxic {
        Toxic(PacketLossToxic(probability: probability, retransmissionTimeout: retransmissionTimeout))
    }
}
