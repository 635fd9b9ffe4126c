import DecafVectors
import DecafWire

/// Network cases made from the golden vectors whose options are the target's: each vector's bytes
/// are sent on a fresh connection and the target must do what a receiver does with them: ACK a
/// valid frame (or not, for ACK and unknown types), refuse an invalid one with an ERROR and a close.
enum VectorCases {
    static func cases(for profile: ConformanceProfile) -> [ConformanceCase] {
        let options = DecodeOptions(bodyLimit: profile.bodyLimit, version: profile.version, tlv: TLVOptions(depthLimit: profile.depthLimit))
        return FrameVectorFile.all.flatMap(\.groups)
            .filter { $0.options == options }
            .flatMap { group in group.tests.compactMap { conformanceCase($0, group: group.name) } }
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
