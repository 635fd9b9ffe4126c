import ArgumentParser
struct DissectCommand: ParsableCommand { func run() throws {} }
