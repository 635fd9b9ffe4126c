@testable import DecafDissect
import DecafJSON
import DecafTestSupport
import DecafWire
import Foundation
import Testing

/// The frame model's registry: a tag registered once is named, and read with its layout, by every
/// output that shows tags.
@Suite("field registry")
struct FieldRegistryTests {
    static let sticker = TLVTag(0x2001)
    static let caption = TLVTag(0x2002)
    static let registry = try! FieldRegistry.brief
        .registering(TLVTagDefinition(sticker, "STICKER", .utf8))
        .registering(TLVTagDefinition(caption, "CAPTION"))

    /// The summary line of `record`, as `dissect` lists a stream.
    static func summary(_ record: FrameRecord, registry: FieldRegistry = .brief) -> String {
        CaptureReport(registry: registry, layout: .stream).lines(for: .frame(StreamCapture.frame(record)))[0]
    }

    /// A DATA frame with a STICKER field, then a container holding a CAPTION.
    static func record(sticker value: [UInt8] = Array("hello".utf8)) -> FrameRecord {
        let fields = [TLVField(tag: sticker, bytes: value), TLVField(tag: .container, content: .fields([TLVField(tag: caption, text: "inner")]))]
        var encoder = FrameEncoder()
        var bytes: [UInt8] = []
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: 1), timestamp: 1_700_000_000,
                                 sessionID: SessionID(rawValue: 1))
        encoder.append(header, payload: TLVEncoder.encode(fields), to: &bytes)
        return DissectorTests.records(StreamCapture.events(of: bytes))[0]
    }

    @Test("a registered tag is named in the summary, the tree, the hexdump, JSON and the Wireshark plugin; without it, each shows the hex")
    func everyOutput() throws {
        let record = Self.record()
        #expect(Self.summary(record, registry: Self.registry).contains(" STICKER,CONTAINER "))
        #expect(Self.summary(record).contains(" 0x2001,CONTAINER "))

        let tree = record.withParts { TreeRenderer.lines(for: $0, registry: Self.registry) }
        #expect(tree.contains("        STICKER (0x2001), 5 bytes: \"hello\""))
        #expect(tree.contains("            CAPTION (0x2002), 5 bytes: 69 6e 6e 65 72"))
        #expect(record.withParts { TreeRenderer.lines(for: $0) }.contains("        0x2001 (unknown tag), 5 bytes: 68 65 6c 6c 6f"))

        let hexdump = record.withParts { HexdumpRenderer.lines(for: $0, registry: Self.registry) }
        #expect(hexdump.contains { $0.hasSuffix(" STICKER tag, length 5") })
        #expect(hexdump.contains { $0.hasSuffix("   CAPTION value") })
        #expect(record.withParts { HexdumpRenderer.lines(for: $0) }.contains { $0.hasSuffix(" 0x2001 tag, length 5") })

        let line = try #require(CaptureReport(style: .json, registry: Self.registry, layout: .stream).lines(for: .frame(StreamCapture.frame(record))).first)
        let json = try JSONDecoder().decode(FrameRecordJSON.self, from: Data(line.utf8))
        #expect(json.tlv?.first?.name == "STICKER")
        #expect(json.tlv?.first?.decoded?.text == "hello")
        #expect(json.tlv?.last?.fields?.first?.name == "CAPTION")
        #expect(json.tlv?.last?.fields?.first?.decoded == nil, "CAPTION holds bytes")
        let plain = try JSONDecoder().decode(FrameRecordJSON.self, from: Data(CaptureReport(style: .json, layout: .stream).lines(for: .frame(StreamCapture.frame(record)))[0].utf8))
        #expect(plain.tlv?.first?.name == nil && plain.tlv?.first?.decoded == nil)

        let lua = WiresharkPlugin.lua(version: "test", registry: Self.registry)
        #expect(lua.contains("[8193] = \"STICKER\", [8194] = \"CAPTION\", [65535] = \"CONTAINER\" }"))
        #expect(lua.contains("local text_tags = { [4097] = true, [8193] = true }"))
        #expect(!WiresharkPlugin.lua(version: "test").contains("STICKER"))
    }

    @Test("every header field of the frame model is shown by the hexdump, the tree, JSON and the Wireshark plugin, under its own name")
    func everyHeaderField() throws {
        let record = Self.record()
        let header = try #require(record.withParts { $0.header })
        let hexdump = record.withParts { HexdumpRenderer.lines(for: $0) }
        let tree = record.withParts { TreeRenderer.lines(for: $0) }
        let line = try #require(CaptureReport(style: .json, layout: .stream).lines(for: .frame(StreamCapture.frame(record))).first)
        let json = try #require(try JSONDecoder().decode(FrameRecordJSON.self, from: Data(line.utf8)).header)
        let lua = WiresharkPlugin.lua(version: "test")
        for field in FrameHeader.Field.inOrder {
            let offset = "0x" + String(repeating: "0", count: 6 - String(field.offset, radix: 16).count) + String(field.offset, radix: 16)
            #expect(hexdump.contains { $0.contains("\(offset)  ") && $0.contains(" \(field.name) ") }, "\(field)")
            // The tree shows the two version bytes as one line, "Version: 1.0 (major 1, minor 0)".
            let title = field == .versionMajor || field == .versionMinor ? "Version" : field.title
            #expect(tree.contains { $0.hasPrefix("    \(title): ") }, "\(field)")
            #expect(lua.contains("(\"\(field.filterName)\", \"\(field.title)\""), "\(field)")
        }
        #expect(json.frameHeader == header, "every field's number is in the JSON header")
    }

    @Test("a registered text tag whose value is not UTF-8 is a TLV-4 warning that names it, in every output")
    func misfit() throws {
        let record = Self.record(sticker: [0xFF, 0xFE])
        let warnings = record.withParts { $0.warnings(Self.registry) }
        #expect(warnings.map(\.requirement) == [.tlv4])
        #expect(warnings.first?.message == "0x2001 STICKER at body offset 0: not valid UTF-8")
        #expect(record.withParts { $0.warnings() }.isEmpty, "unregistered, the tag holds bytes")
        #expect(Self.summary(record, registry: Self.registry).hasSuffix("ok, 1 warning: TLV-4"))
        #expect(record.withParts { TreeRenderer.lines(for: $0, registry: Self.registry) }.contains("        STICKER (0x2001), 2 bytes: ff fe [malformed: not valid UTF-8]"))
        let line = try #require(CaptureReport(style: .json, registry: Self.registry, layout: .stream).lines(for: .frame(StreamCapture.frame(record))).first)
        let json = try JSONDecoder().decode(FrameRecordJSON.self, from: Data(line.utf8))
        #expect(json.tlv?.first?.decoded?.malformed == "not valid UTF-8")
        #expect(json.warnings.map(\.message) == ["0x2001 STICKER at body offset 0: not valid UTF-8"])
    }

    @Test("a tag keeps its name, a name its tag; a name is written as the brief writes them; a tag of one's own holds bytes or text")
    func refusals() {
        #expect(throws: FieldRegistry.Refusal.alreadyNamed(TLVTagDefinition(.text, "TEXT", .utf8))) {
            try FieldRegistry.brief.registering(TLVTagDefinition(.text, "MESSAGE"))
        }
        #expect(throws: FieldRegistry.Refusal.nameTaken(TLVTagDefinition(.text, "TEXT", .utf8))) {
            try FieldRegistry.brief.registering(TLVTagDefinition(Self.sticker, "TEXT"))
        }
        for name in ["", "sticker", "1ST", "A B", "A\"B", String(repeating: "A", count: 33)] {
            #expect(throws: FieldRegistry.Refusal.badName(name)) { try FieldRegistry.brief.registering(TLVTagDefinition(Self.sticker, name)) }
        }
        for layout in [TLVValueLayout.container, .versionOffer, .sequence, .errorReport] {
            #expect(throws: FieldRegistry.Refusal.layoutNotRegistrable(layout)) {
                try FieldRegistry.brief.registering(TLVTagDefinition(Self.sticker, "STICKER", layout))
            }
        }
        #expect(Self.registry.tags.map(\.tag) == TLVTag.known.dropLast() + [Self.sticker, Self.caption, .container])
        #expect(FieldRegistry.brief.tags.map(\.tag) == TLVTag.known)
    }
}
