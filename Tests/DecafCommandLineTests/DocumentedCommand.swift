import Foundation

/// A command line the documentation shows, and what it shows of the command's run.
struct DocumentedCommand: Sendable, CustomStringConvertible {
    /// Where it is shown: `README.md:182` or `decaf conform client --help`.
    var source: String
    var text: String
    /// The output lines shown after it, without the exit status line.
    var shown: [String] = []
    /// The exit status shown after it.
    var status: Int32?
    /// Whether it is shown with its output (`$ command` in a text block), not only as a synopsis.
    var isTranscript = false

    var line: ShellLine { ShellLine(text) }

    var description: String { "\(source): \(text)" }

    /// Whether the command is Decaf's (`decaf ...` or `.build/debug/decaf ...`).
    static func isDecaf(_ words: [String]) -> Bool {
        words.first == "decaf" || words.first?.hasSuffix("/decaf") == true
    }

    /// The commands in a Markdown document's code blocks: `$ command` lines followed by their
    /// output in text blocks, and `decaf ...` lines in shell blocks.
    static func markdown(_ text: String, name: String) -> [DocumentedCommand] {
        var commands: [DocumentedCommand] = []
        var fence: String?
        var current: DocumentedCommand?
        func finish() {
            guard var done = current else { return }
            while done.shown.last?.isEmpty == true { done.shown.removeLast() }
            commands.append(done)
            current = nil
        }
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                finish()
                fence = fence == nil ? String(line.dropFirst(3)) : nil
                continue
            }
            guard let language = fence else { continue }
            if line.hasPrefix("$ ") {
                finish()
                current = DocumentedCommand(source: "\(name):\(index + 1)", text: String(line.dropFirst(2)), isTranscript: true)
            } else if var command = current {
                if line.hasPrefix("(exit status "), let status = Int32(line.dropFirst("(exit status ".count).dropLast()) {
                    command.status = status
                } else if !line.hasPrefix("(peer: ") {
                    command.shown.append(line)
                }
                current = command
            } else if language == "sh", line.hasPrefix("decaf ") {
                commands.append(DocumentedCommand(source: "\(name):\(index + 1)", text: line))
            }
        }
        finish()
        return commands
    }

    /// The examples in a command's help: `decaf ...` after `Example:` or `Examples:` (and on the
    /// lines that continue them), and in backquotes.
    static func helpExamples(of command: ToolInfo.CommandInfo, named name: String) -> [DocumentedCommand] {
        let help = [command.abstract, command.discussion].compactMap { $0 }.joined(separator: "\n")
        var examples: [String] = []
        var inExamples = false
        for line in help.components(separatedBy: "\n") {
            var text = line.trimmingCharacters(in: .whitespaces)
            if let range = text.range(of: #"^Examples?:\s*"#, options: .regularExpression) {
                inExamples = true
                text.removeSubrange(range)
            }
            if inExamples, text.hasPrefix("decaf ") { examples.append(text) } else { inExamples = false }
        }
        let quoted = help.matches(of: /`(decaf [^`]+)`/).map { String($0.1) }
        return (examples + quoted).map { DocumentedCommand(source: "\(name) --help", text: $0) }
    }
}
