/// What a codec testee did besides answering the requests: output no request asked for (an answer
/// given twice, a log line on standard output) and exits of its own between requests. Each breaks
/// the testee protocol (Specs/conform-testee.md); the run tells it once, as its own failure, and
/// never lays it at the door of the case that happened to come next.
public struct TesteeIrregularities: Sendable, Hashable {
    /// Bytes the testee wrote that no request asked for.
    public var unrequestedBytes = 0
    /// The first line of the first of them (at most 200 bytes), and the request they followed.
    public var firstUnrequested: String?
    public var unrequestedAfter: String?
    /// Requests around which output came that no request asked for (1 for one request's).
    public var unrequestedTimes = 0
    /// How the testee ended, each time it exited by itself between requests.
    public var exits: [String] = []

    /// Nothing irregular, or only the exits told.
    public init(exits: [String] = []) {
        self.exits = exits
    }

    public var isEmpty: Bool { unrequestedBytes == 0 && exits.isEmpty }

    /// Whether the first unrequested output came before the request was written (so it followed
    /// the previous request's answer) rather than right after this request's answer.
    public internal(set) var unrequestedBeforeRequest = false

    /// The testee wrote `bytes` that no request asked for; `beforeRequest` when they came before
    /// the request was all written.
    mutating func unrequested(_ bytes: some Collection<UInt8>, beforeRequest: Bool) {
        if unrequestedBytes == 0 {
            unrequestedBeforeRequest = beforeRequest
            firstUnrequested = String(String(decoding: bytes.prefix(200), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).first ?? "")
        }
        if !bytes.isEmpty { unrequestedTimes = 1 }
        unrequestedBytes += bytes.count
    }

    /// These and `later`, as one run's.
    mutating func add(_ later: TesteeIrregularities) {
        if firstUnrequested == nil {
            firstUnrequested = later.firstUnrequested
            unrequestedAfter = later.unrequestedAfter
        }
        unrequestedBytes += later.unrequestedBytes
        unrequestedTimes += later.unrequestedTimes
        exits += later.exits
    }

    /// What they were, in a sentence or two: "the testee wrote output no request asked for 309
    /// times (21,000 bytes; the first, after codec.decode.x: '{...}'): it answers some requests
    /// more than once", "it exited by itself 177 times between requests (the first: exited with status 0)".
    public var description: String {
        var parts: [String] = []
        if unrequestedBytes > 0 {
            let first = firstUnrequested.map { " '\($0)'" } ?? ""
            let after = unrequestedAfter.map { " after the answer to \($0)" } ?? ""
            parts.append("the testee wrote output no request asked for \(unrequestedTimes) time\(unrequestedTimes == 1 ? "" : "s") (\(unrequestedBytes) bytes; the first\(after):\(first)): "
                + "it answers some requests more than once, or writes what is not an answer on its standard output")
        }
        if !exits.isEmpty {
            parts.append("the testee exited by itself \(exits.count) time\(exits.count == 1 ? "" : "s") between requests (the first: \(exits[0])), "
                + "and was started again each time: a testee answers requests until its input ends")
        }
        return parts.joined(separator: "; ")
    }
}
