import Testing

/// How the documentation test reads a command line.
@Suite("shell lines")
struct ShellLineTests {
    @Test("quotes, pipelines, redirections, a comment and a trailing & are read as a shell reads them")
    func reading() {
        let line = ShellLine(#"decaf send :7447 --text 'see you at eight' --tlv "A=\"b\"" | decaf build --from - > out.bin & # note"#)
        #expect(line.pipeline == [["decaf", "send", ":7447", "--text", "see you at eight", "--tlv", #"A="b""#], ["decaf", "build", "--from", "-"]])
        #expect(line.redirections == ["out.bin"])
        #expect(line.background)
        #expect(line.comment == "note")
        #expect(ShellLine("decaf conform server 10.1.2.3:7447 --case 'handshake.*' -v").pipeline == [["decaf", "conform", "server", "10.1.2.3:7447", "--case", "handshake.*", "-v"]])
    }
}
