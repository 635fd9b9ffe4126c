import ArgumentParser
import DecafCapture
import DecafDissect
import Foundation

/// `decaf wireshark-plugin`: write the Wireshark Lua dissector generated from DecafWire's tables.
struct WiresharkPluginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wireshark-plugin",
        abstract: "Write a Wireshark Lua dissector for the protocol.",
        discussion: """
            Open captures with it: tshark -X lua_script:decaf.lua -r capture.pcapng -V, or copy it to \
            ~/.local/lib/wireshark/plugins/. It decodes the configured port and, by heuristic, any TCP \
            stream that starts with the magic.
            """
    )

    @Option(name: [.short, .long], help: ArgumentHelp("Write the plugin to this file (default: standard output).", valueName: "file"), transform: PathArgument.parse)
    var output: String?

    @Option(help: ArgumentHelp("The default of the plugin's TCP port preference. (default: 7447)", valueName: "port"), transform: IntegerArgument.within(1...65_535))
    var port: UInt16 = SyntheticConversation.defaultServer.port

    @OptionGroup var tagNames: TagOptions

    func run() throws {
        let lua = WiresharkPlugin.lua(port: port, version: Decaf.configuration.version, registry: try tagNames.registry)
        guard let output else { return print(lua, terminator: "") }
        guard FileManager.default.createFile(atPath: output, contents: Data(lua.utf8)) else { throw InputError("cannot write \(output)") }
        print("wrote the Wireshark plugin to \(output)")
    }
}
