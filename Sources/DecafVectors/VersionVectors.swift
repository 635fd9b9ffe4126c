import DecafWire

/// Vectors for the header version against the receiver's own (VER-1, VER-2, VER-3).
enum VersionVectors {
    static var groups: [VectorGroup] { [receiver10, receiver12] }

    static func frame(_ major: UInt8, _ minor: UInt8) -> FrameRecipe {
        FrameRecipe.data(HeaderVectors.hello).with { $0.version = ProtocolVersion(major: major, minor: minor) }
    }

    static var receiver10: VectorGroup {
        let request12 = VersionRequest(version: ProtocolVersion(major: 1, minor: 2), features: [.basic, .compression])
        let control = FrameRecipe.frame(.control, [request12.field])
        return VectorGroup(name: "version-1.0", comment: "A receiver whose own version is 1.0.", tests: [
            .valid(100, "version 1.0", [.ver1, .ver2], frame(1, 0)),
            .invalid(101, "major 2", [.ver1], frame(2, 0).bytes, .versionUnsupported, at: 4),
            .invalid(102, "major 0", [.ver1], frame(0, 0).bytes, .versionUnsupported, at: 4),
            .invalid(103, "major 0xFF", [.ver1], frame(0xFF, 0).bytes, .versionUnsupported, at: 4),
            .invalid(104, "major 2 minor 0xFF", [.ver1], frame(2, 0xFF).bytes, .versionUnsupported, at: 4),
            .invalid(105, "minor 1 is above the receiver's highest minor 0", [.ver2], flags: [.boundary], frame(1, 1).bytes, .versionUnsupported, at: 4),
            .invalid(106, "minor 0xFF", [.ver2], frame(1, 0xFF).bytes, .versionUnsupported, at: 4),
            .invalid(107, "major 2 is reported before an oversized body_length", [.ver1, .frame2], flags: [.errorOrder],
                     frame(2, 0).bytes.settingUInt32(at: 20, 0xFFFF_FFFF).keeping(28), .versionUnsupported, at: 4),
            .invalid(108, "minor 1 is reported before a bad checksum", [.ver2, .crc2], flags: [.errorOrder],
                     frame(1, 1).bytes.settingChecksum(0), .versionUnsupported, at: 4),
            .valid(109, "before the handshake a client sends 1.0 in the header though it offers 1.2 in VERSION_REQUEST",
                   [.ver3, .hs1], control),
            .invalid(110, "a client that sends its highest version 1.2 before the handshake is rejected by a 1.0 receiver",
                     [.ver3, .ver2], control.with { $0.version = ProtocolVersion(major: 1, minor: 2) }.bytes, .versionUnsupported, at: 4),
        ])
    }

    static var receiver12: VectorGroup {
        var options = DecodeOptions()
        options.version = ProtocolVersion(major: 1, minor: 2)
        return VectorGroup(name: "version-1.2", comment: "A receiver whose own version is 1.2: minors 0 to 2 are accepted.", options: options, tests: [
            .valid(120, "version 1.0 at a 1.2 receiver", [.ver2], frame(1, 0)),
            .valid(121, "version 1.1 at a 1.2 receiver", [.ver2], frame(1, 1)),
            .valid(122, "version 1.2, the receiver's highest", [.ver2], flags: [.boundary], frame(1, 2)),
            .invalid(123, "version 1.3, one above the highest", [.ver2], flags: [.boundary], frame(1, 3).bytes, .versionUnsupported, at: 4),
            .invalid(124, "version 2.2: same minor, other major", [.ver1], frame(2, 2).bytes, .versionUnsupported, at: 4),
            .invalid(125, "version 0.2", [.ver1], frame(0, 2).bytes, .versionUnsupported, at: 4),
        ])
    }
}
