import ArgumentParser
import DecafConformance
import DecafDiagnosis
import DecafDissect
import DecafJSON
import Foundation

/// `decaf testee decoder`: DecafWire as a testee of `decaf conform decoder` and `decaf fuzz
/// decoder`, speaking Specs/conform-testee.md on its standard input and output, with faults on
/// purpose.
struct TesteeDecoderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decoder",
        abstract: "Decaf's codec as a testee: decaf conform decoder -- decaf testee decoder.",
        discussion: """
            It answers each request on standard input with one line on standard output, as Specs/conform-testee.md says. \
            With --fault it misbehaves on purpose, only on the rare inputs the fault names: what decaf fuzz decoder must find \
            and no conformance case meets. With --mistake it makes one of the mistakes codecs of this protocol make, on every \
            input: the targets the codec suite must fail, and the defects its diagnosis names (--list-mistakes shows them).
            """
    )

    @Option(help: ArgumentHelp("Misbehave on purpose (--list-faults shows them); repeatable.", valueName: "name"))
    var fault: [CodecFault] = []

    @Option(help: ArgumentHelp("Make this mistake on every input (--list-mistakes shows them); repeatable.", valueName: "name"))
    var mistake: [CodecMistake] = []

    @Flag(help: "List the faults, what each does and the requirements it breaks.")
    var listFaults = false

    @Flag(help: "List the mistakes, the defect each is and the requirements it breaks.")
    var listMistakes = false

    func run() throws {
        if listFaults || listMistakes {
            let listed = listFaults ? CodecFault.allCases.map { ($0.name, $0.breaks, $0.summary) } : CodecMistake.allCases.map { ($0.name, $0.breaks, $0.cause) }
            for line in FaultListing.lines(listed) { print(line) }
            return
        }
        let testee = CodecTestee(faults: Set(fault), mistakes: Set(mistake))
        let output = FileHandleOutput.standardOutput
        while let line = readLine() {
            guard let request = try? JSONDecoder().decode(TesteeMessage.Request.self, from: Data(line.utf8)) else {
                output.write(JSONLine.encode(TesteeMessage.Response(result: "skipped", reason: "not a request of the testee protocol")) + "\n")
                continue
            }
            switch testee.reply(to: request) {
            case let .answer(response):
                output.write(JSONLine.encode(response) + "\n")
            case let .crash(why):
                FileHandleOutput.standardError.write("decaf testee decoder: planted fault: \(why)\n")
                // Dies of SIGABRT as a C parser's abort() would, without the Swift runtime's backtrace.
                signal(SIGABRT, SIG_DFL)
                raise(SIGABRT)
            case .hang:
                while true { sleep(3600) }
            }
        }
    }
}

extension CodecFault: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension CodecMistake: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
