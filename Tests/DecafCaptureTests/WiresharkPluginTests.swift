import DecafCapture
import DecafDissect
import DecafTestSupport
import DecafVectors
import DecafWire
import Foundation
import Testing

@Suite("The Wireshark plugin under tshark", .enabled(if: ExternalTool.tshark.isInstalled, Comment(rawValue: ExternalTool.tshark.skipReason)))
struct WiresharkPluginTests {
    static let plugin: URL = {
        let url = FileManager.default.temporaryDirectory.appending(path: "decaf-\(ProcessInfo.processInfo.processIdentifier).lua")
        try? Data(WiresharkPlugin.lua(version: "test").utf8).write(to: url)
        return url
    }()

    /// What the plugin's `decaf.summary` says of a frame, computed from Decaf's own dissection.
    static func summary(_ record: FrameRecord) -> String? {
        guard let header = record.header else { return nil }
        var tags: [String] = []
        func walk(_ fields: [TLVElement]) {
            for field in fields {
                tags.append(Hex.format(field.tag.rawValue, width: 4).dropFirst(2).lowercased())
                if field.isContainer { walk(record.visible(field.children)) }
            }
        }
        walk(record.fields ?? [])
        let status = record.computedChecksum == header.checksum ? "correct" : "mismatch"
        return "type=\(header.messageType.rawValue) seq=\(Hex.word(header.sequence.rawValue).dropFirst(2).lowercased()) "
            + "session=\(Hex.format(header.sessionID.rawValue, width: 4).dropFirst(2).lowercased()) length=\(header.bodyLength) "
            + "checksum=\(status) tags=\(tags.joined(separator: ","))"
    }

    @Test("tshark with the plugin finds the frames and fields `decaf dissect --json` finds",
          arguments: SampleCapture.all.map(\.name))
    func agreesWithDissect(_ name: String) throws {
        let sample = try #require(SampleCapture.all.first { $0.name == name })
        let path = FixturePaths.fixtures.appending(path: "captures/\(name)").path
        let run = try Tshark.run(["-o", "tcp.reassemble_out_of_order:TRUE", "-X", "lua_script:\(Self.plugin.path)", "-r", path,
                                  "-T", "fields", "-e", "frame.number", "-e", "decaf.summary"])
        #expect(!run.error.contains("Lua:"), "the plugin failed: \(run.error)")
        var seen: [Int: String] = [:]
        for line in run.output.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            if columns.count == 2, !columns[1].isEmpty, let number = Int(columns[0]) { seen[number] = String(columns[1]) }
        }
        var expected: [Int: String] = [:]
        // Wireshark cannot reassemble past bytes the capture lost; compare the connection without a gap.
        let frames = CaptureDissection(sample.bytes).frames.filter { name != "damaged.pcap" || $0.connection.index == 1 }
        for frame in frames {
            guard let summary = Self.summary(frame.record) else { continue }
            let packet = frame.completedBy
            expected[packet] = expected[packet].map { $0 + "," + summary } ?? summary
        }
        if name == "damaged.pcap" { seen = seen.filter { $0.key < 10 } }
        #expect(!expected.isEmpty)
        #expect(seen == expected)
    }

    @Test("a checksum mismatch is an expert error in Wireshark")
    func checksumExpert() throws {
        let path = FixturePaths.fixtures.appending(path: "captures/damaged.pcap").path
        let run = try Tshark.run(["-X", "lua_script:\(Self.plugin.path)", "-r", path, "-Y", "decaf.checksum.bad", "-T", "fields", "-e", "frame.number"])
        #expect(run.output.split(separator: "\n") == ["5"])
    }
}
