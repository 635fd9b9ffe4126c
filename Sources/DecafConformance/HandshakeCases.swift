import DecafWire

/// Cases of the version handshake (HS-2, VER-3), judged against the version and features the
/// target showed in the run's opening handshake.
enum HandshakeCases {
    static func cases(for profile: ConformanceProfile) -> [ConformanceCase] {
        let v10 = ProtocolVersion.v1_0
        let newest = ProtocolVersion(major: profile.version.major, minor: .max)
        let otherMajor = ProtocolVersion(major: profile.version.major &+ 1, minor: 0)
        return [
            ConformanceCase("handshake.all-features", [.hs2, .ex1], .required,
                            "a VERSION_REQUEST for 1.0 with every known feature is acknowledged and answered",
                            steps: CaseFrames.handshake(v10, .known)),
            ConformanceCase("handshake.basic-only", [.hs2], .required,
                            "a request with BASIC only is answered with at most BASIC",
                            steps: CaseFrames.handshake(v10, .basic)),
            ConformanceCase("handshake.features-intersection", [.hs2], .required,
                            "a request with BASIC and READ_RECEIPT is answered with their intersection with the target's features",
                            steps: CaseFrames.handshake(v10, [.basic, .readReceipt])),
            ConformanceCase("handshake.no-features", [.hs2], .required,
                            "a request with no feature bits is answered with none",
                            steps: CaseFrames.handshake(v10, [])),
            ConformanceCase("handshake.unknown-features-not-echoed", [.hs2, .tlv4], .required,
                            "a request with every bit set is answered without the bits the brief does not define",
                            steps: CaseFrames.handshake(v10, FeatureFlags(rawValue: 0xFFFF))),
            ConformanceCase("handshake.lower-minor", [.hs2, .ver2], .required,
                            "a request for \(newest) is answered with the target's own highest minor",
                            steps: CaseFrames.handshake(newest, .known)),
            ConformanceCase("handshake.other-major", [.hs2, .ver1], .required,
                            "a request for \(otherMajor) (in a 1.0 header) is answered with the target's version and no features, then closed",
                            steps: CaseFrames.handshake(otherMajor, .known)),
            ConformanceCase("handshake.renegotiate", [.hs2], .required,
                            "a second handshake on the same connection renegotiates the features",
                            steps: CaseFrames.handshake(v10, .known) + CaseFrames.handshake(v10, .basic, counter: 2)),
            ConformanceCase("handshake.request-byte-by-byte", [.hs2, .frame3], .required,
                            "a VERSION_REQUEST written one byte at a time is answered",
                            steps: CaseFrames.handshake(v10, .known, split: CaseFrames.bytewise(38))),
            ConformanceCase("handshake.session-echo", [.hs2, .session1], .required,
                            "the ACK and the response echo the request's session_id 0xBEEF",
                            steps: CaseFrames.handshake(v10, .known, session: SessionID(rawValue: 0xBEEF))),
            ConformanceCase("handshake.compressed-request", [.hs2, .zlib1], .required,
                            "a VERSION_REQUEST in a zlib-compressed body is answered",
                            steps: compressedHandshake()),
            ConformanceCase("handshake.after-data", [.hs2, .hs1], .recommended,
                            "a handshake after a DATA frame is still answered (HS-1 is a SHOULD for clients)",
                            steps: CaseFrames.acked(CaseFrames.data(1).0, CaseFrames.data(1).1) + CaseFrames.handshake(v10, .known, counter: 1)),
            ConformanceCase("handshake.then-data", [.ver3, .ex1], .required,
                            "after the handshake, a DATA frame in the agreed version is acknowledged",
                            steps: CaseFrames.handshake(v10, .known) + CaseFrames.acked(CaseFrames.data(1).0, CaseFrames.data(1).1)),
        ]
    }

    private static func compressedHandshake() -> [ConformanceStep] {
        let (header, fields) = CaseFrames.versionRequest(.v1_0, .known)
        var compressed = header
        compressed.compressType = .zlib
        return [
            CaseFrames.send(compressed, fields, label: "CONTROL seq \(header.sequence) [VERSION_REQUEST], zlib body"),
            .expect(.versionResponse(to: VersionRequest(version: .v1_0, features: .known), sequence: header.sequence, session: header.sessionID)),
        ]
    }
}
