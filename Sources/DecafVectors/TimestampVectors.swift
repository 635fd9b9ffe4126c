import DecafWire

/// Vectors for the optional timestamp window (TS-1).
enum TimestampVectors {
    static var groups: [VectorGroup] { [window, noWindow] }

    static let now = FrameRecipe.timestamp

    static func frame(_ timestamp: UInt32) -> FrameRecipe {
        FrameRecipe.data(HeaderVectors.hello).with { $0.timestamp = timestamp }
    }

    static var window: VectorGroup {
        var options = DecodeOptions()
        options.timestampWindow = TimestampWindow(seconds: 60, now: now)
        return VectorGroup(name: "timestamp-window-60", comment: "A receiver that rejects timestamps more than 60 s from its clock, which reads 1700000000.", options: options, tests: [
            .valid(250, "timestamp equal to now", [.ts1], frame(now)),
            .valid(251, "timestamp 60 s ahead", [.ts1], flags: [.boundary], frame(now + 60)),
            .valid(252, "timestamp 60 s behind", [.ts1], flags: [.boundary], frame(now - 60)),
            .invalid(253, "timestamp 61 s ahead", [.ts1], flags: [.boundary], frame(now + 61).bytes, .timestampOutOfWindow, at: 12),
            .invalid(254, "timestamp 61 s behind", [.ts1], flags: [.boundary], frame(now - 61).bytes, .timestampOutOfWindow, at: 12),
            .invalid(255, "timestamp 0", [.ts1], frame(0).bytes, .timestampOutOfWindow, at: 12),
            .invalid(256, "timestamp 0xFFFFFFFF", [.ts1], frame(0xFFFF_FFFF).bytes, .timestampOutOfWindow, at: 12),
            .invalid(257, "an unknown compress_type is reported before the timestamp", [.ts1, .frame6], flags: [.errorOrder],
                     frame(0).with { $0.compressType = CompressType(rawValue: 5) }.bytes, .unsupportedCompression, at: 17),
            .invalid(258, "the timestamp is reported before a truncated body", [.ts1, .frame3], flags: [.errorOrder, .headerOnly],
                     frame(0).bytes.keeping(28), .timestampOutOfWindow, at: 12),
            .invalid(259, "the timestamp is reported before a bad checksum", [.ts1, .crc2], flags: [.errorOrder],
                     frame(now + 3600).bytes.settingChecksum(0), .timestampOutOfWindow, at: 12),
        ])
    }

    static var noWindow: VectorGroup {
        VectorGroup(name: "timestamp-no-window", comment: "A receiver without a timestamp window accepts any timestamp.", tests: [
            .valid(270, "timestamp 0", [.ts1], frame(0)),
            .valid(271, "timestamp 0xFFFFFFFF", [.ts1], frame(0xFFFF_FFFF)),
        ])
    }
}
