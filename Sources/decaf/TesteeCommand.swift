import ArgumentParser

/// `decaf testee`: Decaf's own implementations as testees of `decaf conform`.
struct TesteeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testee",
        abstract: "Run one of Decaf's own implementations as a testee of decaf conform.",
        subcommands: [TesteeClientCommand.self, TesteeDecoderCommand.self]
    )
}
