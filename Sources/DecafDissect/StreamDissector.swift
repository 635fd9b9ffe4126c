import DecafWire

/// Dissects a byte stream holding any number of frames: every frame is reported, good or bad, and
/// after a bad one decoding resumes at the next magic, saying how far it skipped.
public struct StreamDissector {
    public let options: DecodeOptions
    private var decoder: FrameDecoder
    private var count = 0
    /// Set while resynchronizing: the decoder's discarded-byte count when the error happened.
    private var discardedAtError: Int?

    /// A dissector with `options`; encrypted bodies are always accepted as opaque, since a
    /// dissector shows them rather than refusing them.
    public init(options: DecodeOptions = DecodeOptions()) {
        var options = options
        options.acceptsEncryptedBodies = true
        self.options = options
        decoder = FrameDecoder(options: options)
    }

    /// Every event `bytes` completes.
    public mutating func append(_ bytes: [UInt8]) -> [DissectionEvent] {
        decoder.append(bytes)
        var events: [DissectionEvent] = []
        while true {
            do {
                guard let frame = try decoder.nextFrame() else { return events }
                noteResumption(at: frame.streamOffset, into: &events)
                count += 1
                events.append(.frame(FrameRecord(index: count, frame: frame)))
            } catch {
                record(error, into: &events)
                discardedAtError = decoder.discardedByteCount
                decoder.resynchronize()
            }
        }
    }

    /// The events that the end of the stream brings: how much was skipped looking for a magic that
    /// never came, or a truncated last frame, after which there is nothing to resume.
    public mutating func finish() -> [DissectionEvent] {
        var events: [DissectionEvent] = []
        do {
            try decoder.finish()
        } catch {
            record(error, into: &events)
        }
        noteResumption(at: nil, into: &events)
        return events
    }

    /// Declares `count` bytes of the stream missing (see `FrameDecoder.skipGap`); returns how many
    /// buffered bytes of an unfinished frame were lost with them. Decoding resumes at the next magic.
    public mutating func skipGap(_ count: Int) -> Int {
        let dropped = decoder.skipGap(count)
        discardedAtError = decoder.discardedByteCount
        return dropped
    }

    /// Stream offset of the first byte not yet part of a reported frame or skipped.
    public var streamOffset: Int { decoder.streamOffset }

    /// Every event of a whole stream.
    public static func dissect(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) -> [DissectionEvent] {
        var dissector = StreamDissector(options: options)
        return dissector.append(bytes) + dissector.finish()
    }

    private mutating func record(_ error: WireError, into events: inout [DissectionEvent]) {
        noteResumption(at: error.frameOffset, into: &events)
        count += 1
        let bytes = decoder.failedFrameBytes ?? []
        events.append(.frame(FrameRecord(index: count, error: error, bytes: bytes, options: options)))
    }

    private mutating func noteResumption(at offset: Int?, into events: inout [DissectionEvent]) {
        guard let discardedAtError else { return }
        self.discardedAtError = nil
        let skipped = decoder.discardedByteCount - discardedAtError
        if skipped > 0 {
            events.append(.resynchronized(skipped: skipped, resumedAt: offset))
        }
    }
}
