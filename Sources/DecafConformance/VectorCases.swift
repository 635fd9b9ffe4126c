import DecafVectors
import DecafWire

/// Network cases made from the golden vectors: each vector's bytes are sent on a fresh connection
/// and the target must do what a receiver does with them: ACK a valid frame (or not, for ACK and
/// unknown types), refuse an invalid one with an ERROR and a close. The vectors whose options are
/// the target's are taken as they are; for a target configured otherwise than the brief's
/// defaults (another version, body or depth limit, repeated tags allowed), the vectors made for
/// the defaults are judged again as that target must read them (`FrameVector(judgedUnder:)`), so
/// a legal configuration never fails a case made for another.
enum VectorCases {
    static func cases(for profile: ConformanceProfile) -> [ConformanceCase] {
        let options = profile.decodeOptions
        let groups = FrameVectorFile.all.flatMap(\.groups)
        let own = groups.filter { $0.options == options }.flatMap { group in group.tests.map { (vector: $0, group: group.name) } }
        let rejudged = options == DecodeOptions() ? [] : groups.filter { $0.options == DecodeOptions() }.flatMap { group in
            group.tests.compactMap { vector in Self.judged(vector, under: options).map { (vector: $0, group: group.name) } }
        }
        return (own + rejudged).compactMap { conformanceCase($0.vector, group: $0.group) }
    }

    /// `vector`, made for the brief's defaults, as a receiver with `options` must read it: as it
    /// is when the reading is the same, else with the expectation the reference derives.
    static func judged(_ vector: FrameVector, under options: DecodeOptions) -> FrameVector? {
        guard let derived = FrameVector(tcId: vector.tcId, comment: vector.comment + " (as a target with its own limits reads it)",
                                        requirements: vector.requirements, bytes: vector.bytes, judgedUnder: options) else { return nil }
        return derived.expectation.result == vector.result && derived.expectation.refusal == vector.expectation.refusal ? vector : derived
    }

    /// The case for `vector`, or nil when the network cannot show what it tests.
    static func conformanceCase(_ vector: FrameVector, group: String) -> ConformanceCase? {
        let header = FrameHeader(decoding: vector.bytes)
        let testsTimestamp = vector.requirements.contains(.ts1)
        let send = ConformanceStep.send(transmission(vector))
        let id = "wire.\(group).\(vector.tcId)"
        switch vector.expectation {
        case .valid:
            guard let header else { return nil }
            if testsTimestamp {
                return ConformanceCase(id, vector.requirements, .optional, vector.comment + " (a target may enforce a window)",
                                       steps: [send, .expect(.ackOrFatal(header.sequence, session: header.sessionID, .timestampOutOfWindow))])
            }
            let type = header.messageType
            let acknowledged = type.isAcknowledged
            let expectation: Expectation = acknowledged ? .ack(header.sequence, session: header.sessionID) : .noAck(header.sequence)
            let requirements = vector.requirements + [acknowledged ? (type == .heartbeat ? .ex2 : .ex1) : .ex3]
            return ConformanceCase(id, unique(requirements), .required, vector.comment, steps: [send, .expect(expectation)])
        case let .invalid(refusal):
            let error = refusal.error
            if error == .truncatedFrame {
                return ConformanceCase(id, unique(vector.requirements + [.ex5]), .required, vector.comment + "; then the stream ends",
                                       steps: [send, .endStream, .expect(.close([error]))])
            }
            // A frame cut short whose header is already wrong: a stream decoder can refuse it from
            // the header, or wait for the rest (of the header too: Specs/decaf-wire-v1.md,
            // interpretation 1) and refuse it as cut short when the stream ends; both are correct.
            // Only a body too large MUST be refused from the header (FRAME-2).
            if isCutShort(vector.bytes, header: header, refusedWith: error) {
                return ConformanceCase(id, unique(vector.requirements + [.ex5]), .required, vector.comment + "; then the stream ends",
                                       steps: [send, .endStream, .expect(.close([error, .truncatedFrame]))])
            }
            let exact = vector.flags.contains(.errorOrder)
            return ConformanceCase(id, unique(vector.requirements + [.ex5]), .required, vector.comment,
                                   steps: [send, .expect(.fatal(error, exactCode: exact))])
        case let .acceptable(_, refusal):
            guard let header else { return nil }
            // Taken, an ACK or an undefined type gets no ACK: silence, told from a hang by a sentinel.
            let taken: Expectation = header.messageType.isAcknowledged
                ? .ackOrFatal(header.sequence, session: header.sessionID, refusal.error) : .noAckOrFatal(header.sequence, refusal.error)
            return ConformanceCase(id, vector.requirements, .optional, vector.comment, steps: [send, .expect(taken)])
        }
    }

    /// Whether `bytes`, refused with `error`, stop before their header or body is whole, so a
    /// receiver may wait for the rest rather than refuse them from what came: a header cut short
    /// whatever it holds, a body cut short unless the header says it is too large (which the whole
    /// header alone decides).
    static func isCutShort(_ bytes: [UInt8], header: FrameHeader?, refusedWith error: ErrorCode) -> Bool {
        guard let header else { return bytes.count < FrameHeader.size }
        return error != .bodyTooLarge && bytes.count < FrameHeader.size + Int(header.bodyLength)
    }

    /// The vector's bytes as one write, labelled with its number and comment. Timestamps are what
    /// TS-1 vectors test; every other frame carries the run's clock.
    static func transmission(_ vector: FrameVector) -> Transmission {
        let stamps = vector.bytes.starts(with: FrameHeader.magicBytes) ? [Transmission.Stamp(headerOffset: 0, setsClock: !vector.requirements.contains(.ts1))] : []
        return Transmission(label: "vector \(vector.tcId): \(vector.comment)", bytes: vector.bytes, stamps: stamps)
    }

    static func unique(_ requirements: [RequirementID]) -> [RequirementID] {
        var seen = Set<RequirementID>()
        return requirements.filter { seen.insert($0).inserted }
    }
}
