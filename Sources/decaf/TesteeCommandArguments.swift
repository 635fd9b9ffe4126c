import ArgumentParser

/// The testee's command line, after `--`: how `conform decoder|client` and `fuzz decoder|client`
/// take the program they run (Specs/conform-testee.md, Specs/conform-client.md).
struct TesteeCommandArguments: ParsableArguments {
    @Argument(parsing: .postTerminator, help: "The testee's command line, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty {
            throw ValidationError("give the testee's command after --, e.g. -- decaf testee decoder (a codec) or -- decaf testee client (a client)")
        }
    }
}
