extension FrameHeader {
    /// The header of the ACK that answers a frame with this header (EX-1, EX-2): msg_type ACK, the
    /// same sequence and session_id, an empty body, checksum 0, no encryption or compression.
    /// `version` is the one the sender uses on the connection (VER-3).
    public func acknowledgement(timestamp: UInt32, version: ProtocolVersion) -> FrameHeader {
        FrameHeader(messageType: .ack, sequence: sequence, timestamp: timestamp, sessionID: sessionID, version: version)
    }
}
