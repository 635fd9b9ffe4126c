import ArgumentParser

/// The toolkit's command line: thin commands over the Decaf modules.
struct Decaf: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decaf",
        abstract: "Tools for the Decaf binary IM wire protocol (magic 0xDECAFBAD).",
        version: "0.1.0",
        subcommands: [ConformCommand.self, DissectCommand.self, BuildCommand.self, WiresharkPluginCommand.self, FixturesCommand.self, PeerCommand.self, ProxyCommand.self, HandshakeCommand.self, SendCommand.self, TesteeCommand.self, FuzzCommand.self, MonitorCommand.self]
    )
}
