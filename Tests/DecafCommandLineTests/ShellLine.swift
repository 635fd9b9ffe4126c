import Foundation

/// A command line as a POSIX shell reads it, as far as documentation uses the shell: words with
/// single and double quotes and backslashes, pipelines, redirections, a `#` comment and a trailing `&`.
struct ShellLine: Equatable {
    /// The commands of the pipeline, each as its words.
    var pipeline: [[String]]
    var background = false
    var comment: String?
    /// The files standard input or output is redirected to or from.
    var redirections: [String] = []

    init(_ text: String) {
        var stages: [[String]] = [[]]
        var word: String?
        var quote: Character?
        var escaped = false
        var redirecting = false
        var redirections: [String] = [], background = false, comment: String?
        var rest = Substring(text)
        func endWord() {
            if let done = word {
                if redirecting { redirections.append(done) } else { stages[stages.count - 1].append(done) }
                redirecting = false
            }
            word = nil
        }
        while let character = rest.first {
            rest = rest.dropFirst()
            if escaped {
                word = (word ?? "") + String(character)
                escaped = false
            } else if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { word = (word ?? "") + String(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == "\\" {
                escaped = true
            } else if character == " " || character == "\t" {
                endWord()
            } else if character == "#" && word == nil {
                comment = rest.trimmingCharacters(in: .whitespaces)
                break
            } else if character == "|" && word == nil {
                stages.append([])
            } else if (character == ">" || character == "<") && word == nil {
                redirecting = true
            } else if character == "&" && word == nil {
                background = true
            } else {
                word = (word ?? "") + String(character)
            }
        }
        endWord()
        pipeline = stages.filter { !$0.isEmpty }
        self.redirections = redirections
        self.background = background
        self.comment = comment
    }
}
