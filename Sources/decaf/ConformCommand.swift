import ArgumentParser

/// `decaf conform`: the conformance suite against a server or a codec, its catalog, and the exact
/// bytes of a case.
struct ConformCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform",
        abstract: "Check an implementation of the protocol (server, client or codec), case by case, and say where it breaks the spec and why.",
        discussion: """
        Exit status: 0 when every required case passes (or fails as the --baseline expects), 1 when one \
        does not, 2 on a usage or harness error, 3 when nothing ran.
        """,
        subcommands: [ConformServerCommand.self, ConformClientCommand.self, ConformDecoderCommand.self, ConformListCommand.self, ConformCoverageCommand.self, ConformReproCommand.self, ConformVectorsCommand.self]
    )
}
