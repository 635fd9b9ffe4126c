import DecafWire

/// The steps that open a session before a case's own frames, for cases made outside the catalog
/// (the fuzzer's): the handshake the catalog's cases make, and a DATA frame acknowledged.
public enum SessionOpening {
    /// The session the catalog's frames carry; a run gives each connection its own in its place.
    public static let session = CaseFrames.session

    /// A VERSION_REQUEST for version 1.0 with every known feature in a CONTROL frame with
    /// `counter`, and the answer HS-2 gives.
    public static func handshake(counter: UInt32) -> [ConformanceStep] { CaseFrames.handshake(counter: counter) }

    /// The sequence of the handshake's CONTROL frame with `counter`.
    public static func handshakeSequence(counter: UInt32) -> SequenceNumber { CaseFrames.header(.control, counter).sequence }

    /// A DATA frame with a TEXT field, stamped with the run's clock, and its one ACK.
    public static func acknowledgedData(counter: UInt32) -> [ConformanceStep] {
        let (header, fields) = CaseFrames.data(counter, "before")
        return CaseFrames.acked(header, fields)
    }

    /// The sequence of that DATA frame.
    public static func dataSequence(counter: UInt32) -> SequenceNumber { CaseFrames.data(counter).0.sequence }
}
