/// A choice the brief leaves a receiver (Specs/decaf-wire-v1.md, interpretations 1, 3 and 6): a
/// legal implementation may make it or not. `LegalOutcomes` follows every one to its end to tell
/// what any legal receiver may answer; a receiver that made some of them (`decaf testee decoder
/// --choice`, the zoo of legal codecs) reads a stream with these three steps around its decoder:
/// `refusal` before decoding, `options` to decode with, `options(after:)` to decode again after a
/// refusal the choice overrules. Pure.
public enum ReceiverChoice: String, CaseIterable, Hashable, Sendable {
    /// It can decrypt, so it takes an AES256 body as opaque and goes on to the checks after
    /// encryption (FRAME-5, interpretation 6).
    case decryptsAES256 = "decrypts-aes256"
    /// It blames the first field found too deep, so a container one past the depth limit with an
    /// empty value is accepted (TLV-2, interpretation 3); one that holds fields is refused at its
    /// tag all the same (`TLVOptions.acceptsEmptyContainerPastLimit`).
    case emptyContainerPastLimit = "empty-container-past-limit"
    /// It judges a header only once all 28 bytes arrived, so a stream shorter than a header is cut
    /// short, whatever field it got wrong (interpretation 1).
    case wholeHeader = "whole-header"

    /// What the choice is, in a line.
    public var summary: String {
        switch self {
        case .decryptsAES256: "can decrypt: takes an AES256 body as opaque, then makes the checks after encryption"
        case .emptyContainerPastLimit: "blames the first field found too deep: accepts an empty container one past the depth limit"
        case .wholeHeader: "judges a header only once whole: a stream shorter than a header is TRUNCATED_FRAME at 0"
        }
    }

    /// The refusal a receiver with `choices` gives `bytes` before decoding them, if any.
    public static func refusal(of bytes: [UInt8], choices: Set<ReceiverChoice>) -> WireError? {
        guard choices.contains(.wholeHeader), !bytes.isEmpty, bytes.count < FrameHeader.size else { return nil }
        return WireError(.truncatedFrame(received: bytes.count, expected: nil), offset: 0)
    }

    /// The options a receiver with `choices` decodes with.
    public static func options(_ options: DecodeOptions, choices: Set<ReceiverChoice>) -> DecodeOptions {
        var chosen = options
        if choices.contains(.decryptsAES256) { chosen.acceptsEncryptedBodies = true }
        if choices.contains(.emptyContainerPastLimit) { chosen.tlv.acceptsEmptyContainerPastLimit = true }
        return chosen
    }

    /// The options a receiver with `choices` decodes `bytes` again with after `error`, when a choice
    /// overrules that refusal; nil when none does.
    public static func options(after error: WireError, of bytes: [UInt8], options: DecodeOptions, choices: Set<ReceiverChoice>) -> DecodeOptions? {
        switch error.fault {
        case .undecryptableBody where choices.contains(.decryptsAES256) && !options.acceptsEncryptedBodies:
            var decrypting = options
            decrypting.acceptsEncryptedBodies = true
            return decrypting
        case .tlvTooDeep where choices.contains(.emptyContainerPastLimit) && !options.tlv.acceptsEmptyContainerPastLimit:
            // Decoded again, a container past the limit that holds fields is refused at the same
            // place; an empty one is taken, and what follows it is judged (a field cut short after
            // it, another container too deep).
            var lenient = options
            lenient.tlv.acceptsEmptyContainerPastLimit = true
            return lenient
        default:
            return nil
        }
    }
}
