import DecafWire

/// What each requirement of Specs/decaf-wire-v1.md asks of each role, at its strongest: the rows
/// of the coverage matrix (`decaf conform coverage`). A rule the brief states as fact (EX-1: DATA
/// is acknowledged) is a MUST; nil where the requirement does not bind the role at all.
extension RequirementID {
    public func obligation(for role: ConformanceRole) -> Obligation? {
        switch self {
        // What every receiver and every codec decides on the same bytes.
        case .frame1, .frame2, .frame3, .frame4, .frame5, .frame6, .crc1, .crc2, .ver1, .ver2, .seq1, .seq2, .session1,
             .tlv1, .tlv2, .tlv3, .tlv4, .zlib1, .zlib2, .zlib3:
            .must
        case .crc3:
            .should
        // A codec writes and reads the header's version as given; peers send 1.0 until agreed.
        case .ver3:
            .must
        // A receiver MAY refuse; a codec given a window applies it exactly (interpretation 8).
        case .ts1:
            role == .codec ? .must : .may
        // Acknowledged again, never delivered twice; a codec decodes a repeat like the original.
        case .replay1:
            .must
        case .hs1:
            role == .client ? .should : nil
        case .hs2, .ex1, .ex2, .ex3, .ex4:
            role == .codec ? nil : .must
        // Connections are closed by peers; a codec's "never crash" is judged in each of its cases.
        case .ex5:
            role == .codec ? nil : .must
        case .ex6:
            role == .server ? .must : nil
        case .ex7:
            role == .client ? .must : nil
        case .reconnect1:
            role == .client ? .should : nil
        }
    }
}
