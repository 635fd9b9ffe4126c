import ArgumentParser
import DecafConformance
import DecafDiagnosis
import DecafDissect
import DecafJSON
import DecafWire
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
            input: the targets the codec suite must fail, and the defects its diagnosis names (--list-mistakes shows them). \
            With --choice it makes a choice the brief leaves a receiver (--list-choices): still a legal codec, which every \
            suite must pass and no fuzz campaign may report (tools/zoo/legal.py runs them all).
            """
    )

    @Option(help: ArgumentHelp("Misbehave on purpose (--list-faults shows them); repeatable.", valueName: "name"))
    var fault: [CodecFault] = []

    @Option(help: ArgumentHelp("Make this mistake on every input (--list-mistakes shows them); repeatable.", valueName: "name"))
    var mistake: [CodecMistake] = []

    @Option(help: ArgumentHelp("Make this choice the brief leaves a receiver (a legal codec either way; --list-choices shows them); repeatable.",
                               valueName: "name"))
    var choice: [ReceiverChoice] = []

    @Flag(help: "List the faults, what each does and the requirements it breaks.")
    var listFaults = false

    @Flag(help: "List the mistakes, the defect each is and the requirements it breaks.")
    var listMistakes = false

    @Flag(help: "List the choices the brief leaves a receiver, and what each does.")
    var listChoices = false

    func run() throws {
        if listChoices {
            for line in FaultListing.lines(ReceiverChoice.allCases.map { ($0.rawValue, [], $0.summary) }) { print(line) }
            return
        }
        if listFaults || listMistakes {
            let listed = listFaults ? CodecFault.allCases.map { ($0.name, $0.breaks, $0.summary) } : CodecMistake.allCases.map { ($0.name, $0.breaks, $0.cause) }
            for line in FaultListing.lines(listed) { print(line) }
            return
        }
        let testee = CodecTestee(faults: Set(fault), mistakes: Set(mistake), choices: Set(choice))
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

extension ReceiverChoice: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
