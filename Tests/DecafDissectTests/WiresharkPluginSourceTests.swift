import DecafDissect
import DecafTestSupport
import DecafWire
import Foundation
import Testing

/// The Wireshark plugin's Lua, as written by hand (Sources/DecafDissect/WiresharkPlugin.lua) and
/// as `decaf wireshark-plugin` generates it, parsed by Lua 5.2, Wireshark 4.0's Lua, without
/// tshark: a syntax error is caught where it was made. The tshark tests (WiresharkPluginTests)
/// load and run it.
@Suite("The Wireshark plugin's Lua", .enabled(if: ExternalTool.luac.isInstalled, Comment(rawValue: ExternalTool.luac.skipReason)))
struct WiresharkPluginSourceTests {
    /// What `luac5.2 -p` says of the Lua at `file`: nil when it parses.
    static func syntaxError(_ file: URL) async throws -> String? {
        let luac = URL(filePath: try #require(ExternalTool.luac.path))
        let run = try await ChildProcess.run(luac, ["-p", file.path])
        return run.status == 0 ? nil : String(decoding: run.error, as: UTF8.self)
    }

    @Test("the hand-written dissector and the generated plugin, with tags of a user's own, parse; a syntax error does not")
    func parses() async throws {
        let source = FixturePaths.root.appending(path: "Sources/DecafDissect/WiresharkPlugin.lua")
        #expect(try await Self.syntaxError(source) == nil)
        let generated = FileManager.default.temporaryDirectory.appending(path: "decaf-plugin-\(UUID().uuidString).lua")
        defer { try? FileManager.default.removeItem(at: generated) }
        let registry = try FieldRegistry.brief.registering(TLVTagDefinition(TLVTag(0x7001), "NICKNAME", .utf8)).registering(TLVTagDefinition(TLVTag(0x7002), "AVATAR"))
        for plugin in [WiresharkPlugin.lua(version: "test"), WiresharkPlugin.lua(port: 9000, version: "test", registry: registry)] {
            try Data(plugin.utf8).write(to: generated)
            #expect(try await Self.syntaxError(generated) == nil)
        }
        // The check can fail: an `end` too many is a syntax error.
        try Data((WiresharkPlugin.lua(version: "test") + "\nend\n").utf8).write(to: generated)
        #expect(try await Self.syntaxError(generated) != nil)
    }
}
