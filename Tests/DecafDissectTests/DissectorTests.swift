@testable import DecafDissect
import DecafTestSupport
import DecafWire
import Foundation
import Testing

@Suite("Dissector")
struct DissectorTests {
    static func fixture(_ path: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: FixturePaths.fixtures.appending(path: "frames/\(path)").path)!)
    }

    static let hello = fixture("frame-basic/1.bin")

    static func records(_ events: [CaptureEvent]) -> [FrameRecord] {
        events.compactMap { if case let .frame(frame) = $0 { frame.record } else { nil } }
    }

    @Test("hex text (with separators, prefixes and comments) and binary are told apart by content")
    func detection() {
        #expect(InputFormat.detect(Array("de ca fb ad # magic\n0x01:00".utf8)) == .hex)
        #expect(InputFormat.bytes(.hex)(of: Array("de ca fb ad # magic\n0x01:00".utf8)) == [0xDE, 0xCA, 0xFB, 0xAD, 0x01, 0x00])
        #expect(InputFormat.detect(Self.hello) == .binary)
        #expect(InputFormat.detect(Array("# only a comment\n".utf8)) == .binary)
        #expect(InputFormat.hex.bytes(of: Array("abc".utf8)) == nil)
        // What the bytes read so far show for sure: frames, once a byte hex never holds and a whole
        // magic have come, however the chunks cut them.
        func probe(_ chunks: [UInt8]...) -> InputProbe {
            var probe = InputProbe()
            for chunk in chunks { probe.look(at: chunk) }
            return probe
        }
        #expect(probe(Self.hello).isFrames)
        #expect(probe(Array("junk".utf8) + [0xDE, 0xCA], [0xFB], [0xAD]).isFrames, "a magic across three chunks")
        #expect(!probe(Array(Self.hello.prefix(3))).isFrames && probe(Array(Self.hello.prefix(3))).isBinary, "no whole magic yet")
        #expect(!probe(Array("de ca fb ad 01".utf8)).isBinary, "hex text")
        #expect(!probe(Array("# ".utf8) + [0xDE, 0xCA, 0xFB, 0xAD] + Array("\n".utf8), Array("00".utf8)).isBinary, "a magic in a comment of hex text")
        #expect(!probe(Array("# Decaf\nwhat it is".utf8)).sawMagic, "text without a magic")
    }

    @Test("a stream with garbage and bad frames reports every frame, every error and every skip")
    func mixedStream() {
        let stream = Self.hello + Array("GARBAGE!".utf8) + Self.fixture("checksum/207.bin") + Self.fixture("tlv-nesting/425.bin")
            + Self.fixture("frame-basic/6.bin") + Array("tail".utf8)
        let events = StreamCapture.events(of: stream)
        let records = Self.records(events)
        #expect(records.map(\.index) == [1, 2, 3, 4, 5, 6])
        #expect(records.map { $0.error?.code } == [nil, .badMagic, .checksumMismatch, .tlvTooDeep, nil, .badMagic])
        #expect(records.map(\.streamOffset) == [0, 39, 47, 86, 155, 193])
        let notes = events.compactMap { event -> [Int?]? in
            if case let .resynchronized(_, _, skipped, resumedAt, _) = event { [skipped, resumedAt] } else { nil }
        }
        #expect(notes == [[8, 47], [4, nil]])
        let skippedBytes = events.compactMap { event -> [UInt8]? in
            if case let .resynchronized(_, _, _, _, skipped?) = event { [UInt8(skipped.from)] + skipped.bytes } else { nil }
        }
        #expect(skippedBytes == [[39] + Array("GARBAGE!".utf8), [193] + Array("tail".utf8)], "the skipped bytes and the offset of the first")
    }

    @Test("every committed vector dissects to the verdict the decoder gives it")
    func vectorsAgree() throws {
        let directory = FixturePaths.fixtures.appending(path: "frames")
        for group in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.appending(path: group).path) {
                let bytes = Self.fixture("\(group)/\(file)")
                var decoder = FrameDecoder(options: DecodeOptions(acceptsEncryptedBodies: true))
                decoder.append(bytes)
                let decoded = Result { () throws(WireError) in
                    let frame = try decoder.nextFrame()
                    try decoder.finish()
                    return frame
                }
                let record = try #require(Self.records(StreamCapture.events(of: bytes)).first)
                switch decoded {
                case .success: #expect(record.isValid, "\(group)/\(file)")
                case let .failure(error): #expect(record.error == error, "\(group)/\(file)")
                }
            }
        }
    }

    @Test("the hexdump gives every byte of a frame exactly one field")
    func spansCoverEveryByte() throws {
        for path in ["frame-basic/9.bin", "zlib/501.bin", "tlv-nesting/424.bin", "checksum/207.bin", "tlv-framing/418.bin", "truncation/187.bin"] {
            let record = try #require(Self.records(StreamCapture.events(of: Self.fixture(path))).first)
            let spans = record.withParts { FrameLayout.spans(of: $0) }.filter { $0.region == .frame }
            let covered = spans.flatMap { Array($0.range) }
            #expect(covered == Array(0..<record.bytes.count), "\(path)")
            if record.withParts(\.isCompressed), let payload = record.payload {
                let inner = record.withParts { FrameLayout.spans(of: $0) }.filter { $0.region == .decompressedBody }.flatMap { Array($0.range) }
                #expect(inner == Array(0..<payload.count))
            }
        }
    }

    @Test("the tree shows every header field with hex and decimal, the time in UTC and the text as text")
    func tree() throws {
        let record = try #require(Self.records(StreamCapture.events(of: Self.hello)).first)
        #expect(record.withParts { TreeRenderer.lines(for: $0) } == [
            "Frame 1: 39 bytes at stream offset 0",
            "    Magic: 0xDECAFBAD (3737844653) [correct]",
            "    Version: 1.0 (major 1, minor 0)",
            "    Message type: DATA (0x0000, 0)",
            "    Sequence: 0x00000001 (1)",
            "        Category: NORMAL (0)",
            "        Counter: 1",
            "    Timestamp: 0x6553F100 (1700000000), 2023-11-14T22:13:20Z",
            "    Encrypt type: NONE (0x00, 0)",
            "    Compress type: NONE (0x00, 0)",
            "    Session id: 0x444C (17484)",
            "    Body length: 0x0000000B (11)",
            "    Checksum: 0x8A4CDE31 (2320293425) [correct]",
            "    Body: 11 bytes, 1 field",
            "        TEXT (0x1001), 5 bytes: \"hello\"",
        ])
    }

    @Test("a byte-swapped checksum is shown with expected and actual values and named as CRC-3")
    func byteSwappedChecksum() throws {
        let record = try #require(Self.records(StreamCapture.events(of: Self.fixture("checksum/207.bin"))).first)
        let lines = record.withParts { TreeRenderer.lines(for: $0) }
        #expect(lines.contains("    Checksum: 0x31DE4C8A (836652170) [mismatch: expected 0x8A4CDE31, the body's CRC-32, actual 0x31DE4C8A; it is the correct CRC written in little-endian (CRC-3)]"))
        #expect(lines.contains { $0.hasPrefix("    [Error CHECKSUM_MISMATCH (CRC-2)] at frame offset 24") })
    }

    @Test("an error points at the offending field's bytes", arguments: [
        ("frame-magic/21.bin", 0..<4), ("version-1.0/105.bin", 4..<6), ("body-limit-default/150.bin", 20..<24),
        ("frame-encryption/63.bin", 16..<17), ("frame-compression/82.bin", 17..<18), ("checksum/209.bin", 24..<28),
        ("zlib-malformed/550.bin", 28..<30), ("tlv-framing/418.bin", 39..<45), ("tlv-framing/413.bin", 28..<33),
        ("truncation/186.bin", 0..<4),
    ])
    func errorLocation(path: String, range: Range<Int>) throws {
        let record = try #require(Self.records(StreamCapture.events(of: Self.fixture(path))).first)
        let error = try #require(record.error)
        let location = try #require(record.withParts { ErrorExcerpt.location(of: error, in: $0) })
        #expect(location.0 == .frame)
        #expect(location.1 == range)
    }

    @Test("a TLV error in a compressed body points into the decompressed body")
    func compressedLocation() throws {
        let record = try #require(Self.records(StreamCapture.events(of: Self.fixture("zlib-malformed/553.bin"))).first)
        let location = try #require(record.withParts { ErrorExcerpt.location(of: record.error!, in: $0) })
        #expect(location.0 == .decompressedBody)
        #expect(location.1 == 11..<17)
    }

    @Test("the excerpt shows the line holding the offending bytes with carets under them")
    func excerpt() throws {
        let record = try #require(Self.records(StreamCapture.events(of: Self.fixture("checksum/209.bin"))).first)
        #expect(record.withParts { ErrorExcerpt.lines(for: $0, error: record.error!) } == [
            "0x000010  00 00 44 4c 00 00 00 0b 00 00 00 00 10 01 00 00",
            "                                  ^^ ^^ ^^ ^^",
        ])
    }

    @Test("JSON lines carry the frame's bytes and fields, and an error's code, requirement and offset")
    func json() throws {
        let report = CaptureReport(style: .json, layout: .stream)
        let events = StreamCapture.events(of: Self.hello + Self.fixture("tlv-duplicates/440.bin"))
        let lines = events.flatMap { report.lines(for: $0) }
        #expect(lines.count == 2)
        let first = try JSONDecoder().decode(FrameRecordJSON.self, from: Data(lines[0].utf8))
        #expect(first.hex == Hex.string(Self.hello))
        #expect(first.status == "ok")
        #expect(first.header?.msgTypeName == "DATA")
        #expect(first.tlv?.first?.decoded?.text == "hello")
        let second = try JSONDecoder().decode(FrameRecordJSON.self, from: Data(lines[1].utf8))
        #expect(second.error?.name == "TLV_DUPLICATE_TAG")
        #expect(second.error?.requirement == "TLV-3")
        #expect(second.error?.offset == 11)
        #expect(second.error?.frameOffset == 39)
    }

    @Test("warnings for a category mismatch, an undefined type, an odd known value and an opaque body")
    func warnings() throws {
        for (path, requirement) in [("sequence/609.bin", RequirementID.seq2), ("frame-message-type/40.bin", .frame4),
                                    ("tlv-unknown-tags/492.bin", .tlv4), ("frame-encryption/62.bin", .frame5)] {
            let record = try #require(Self.records(StreamCapture.events(of: Self.fixture(path))).first)
            #expect(record.isValid, "\(path)")
            #expect(record.withParts { $0.warnings() }.map(\.requirement) == [requirement], "\(path)")
        }
    }
}
