/// Every answer a receiver may give a byte stream under the brief, as one model: DecafWire's own
/// (the strict reading, Specs/decaf-wire-v1.md), then what a receiver makes of the same bytes
/// after each choice the brief leaves it (`ReceiverChoice`), each followed to its end, so a
/// choice that leads to a later refusal yields that refusal too:
///
/// - a receiver that can decrypt takes an AES256 body as opaque (FRAME-5, interpretation 6), and
///   goes on to the checks after encryption (an unknown compress_type is then its refusal);
/// - a receiver that blames the first field found too deep accepts an empty container one past the
///   depth limit (TLV-2, interpretation 3);
/// - a receiver that judges a header only once it is whole refuses a stream shorter than a header
///   as TRUNCATED_FRAME at 0, whatever field it got wrong (interpretation 1).
///
/// Suites, fuzzers and monitors judge against this set: an answer outside it is one no legal
/// receiver gives. Pure.
public struct LegalOutcomes: Sendable {
    /// What a receiver makes of the stream.
    public enum Outcome: Hashable, Sendable {
        /// Its first frame (`wireLength` tells whether bytes come after it).
        case frame(Frame)
        /// A refusal, with its error.
        case refused(WireError)
    }

    /// The strict reading's outcome first, then every other a legal choice leads to, each once;
    /// empty for a stream that holds nothing at all.
    public let outcomes: [Outcome]

    /// Every outcome a legal receiver with `options` (and each choice the brief leaves it) gives `bytes`, the strict one first.
    public init(of bytes: [UInt8], options: DecodeOptions) {
        var outcomes: [Outcome] = []
        let every = Set(ReceiverChoice.allCases)
        var tried: Set<DecodeOptions> = [options]
        var pending = [options]
        while !pending.isEmpty {
            let current = pending.removeFirst()
            guard let outcome = Self.decode(bytes, options: current) else { continue }
            if !outcomes.contains(outcome) { outcomes.append(outcome) }
            guard case let .refused(error) = outcome,
                  let choice = ReceiverChoice.options(after: error, of: bytes, options: current, choices: every),
                  tried.insert(choice).inserted else { continue }
            pending.append(choice)
        }
        // A header judged only once whole: what is shorter than a header is cut short, and nothing else.
        if let cut = ReceiverChoice.refusal(of: bytes, choices: [.wholeHeader]),
           !outcomes.contains(where: { if case let .refused(error) = $0 { error.code == .truncatedFrame && error.offset == 0 } else { false } }) {
            outcomes.append(.refused(cut))
        }
        self.outcomes = outcomes
    }

    /// The strict reading's outcome: DecafWire's, with the receiver's options as given.
    public var strict: Outcome? { outcomes.first }

    /// Whether some legal receiver takes a frame from the stream.
    public var allowsFrame: Bool { outcomes.contains { if case .frame = $0 { true } else { false } } }

    /// The refusals a legal receiver may give, the strict reading's first.
    public var refusals: [WireError] { outcomes.compactMap { if case let .refused(error) = $0 { error } else { nil } } }

    /// The frames a legal receiver may take.
    public var frames: [Frame] { outcomes.compactMap { if case let .frame(frame) = $0 { frame } else { nil } } }

    /// The stream decoded as one receiver with `options` decodes it, then ended: its first frame
    /// or its first error; nil when it holds nothing.
    private static func decode(_ bytes: [UInt8], options: DecodeOptions) -> Outcome? {
        var decoder = FrameDecoder(options: options)
        decoder.append(bytes)
        do {
            if let frame = try decoder.nextFrame() { return .frame(frame) }
            try decoder.finish()
            return nil
        } catch {
            return .refused(error)
        }
    }
}
