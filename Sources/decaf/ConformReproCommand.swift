import ArgumentParser
import DecafConformance
import DecafDissect
import DecafWire

/// `decaf conform repro CASE-ID`: the exact bytes a case sends, step by step, to reproduce it by
/// hand; server, client and codec cases alike.
struct ConformReproCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repro",
        abstract: "Print the exact bytes a case sends, step by step, and what it expects.",
        discussion: "The bytes are the catalog's; a run writes its clock into the timestamp of each frame it marks as stamped, and gives those frames a session of its own in place of 0x444C."
    )

    @Argument(help: ArgumentHelp("The case ID (decaf conform list shows them).", valueName: "case-id"), transform: TextArgument.nonEmpty)
    var caseID: String

    @OptionGroup var target: TargetProfileOptions

    @Flag(help: "Write only the bytes sent, concatenated, to standard output.")
    var binary = false

    func run() throws {
        if let client = ClientCatalog.case(caseID) {
            if binary {
                if let code = client.sentBytes.withUnsafeBytes({ FileHandleOutput.standardOutput.write(raw: $0) }) { throw InputError.cannotWrite(code) }
            } else {
                print(client.reproduction.joined(separator: "\n"))
            }
            return
        }
        let catalog = ConformanceCatalog(profile: target.profile)
        guard let item = catalog.case(caseID) ?? CodecCase.all.first(where: { $0.id == caseID })?.conformanceCase else {
            FileHandleOutput.standardError.write("decaf conform repro: no case \(caseID) (decaf conform list --suite server|client|codec shows them)\n")
            throw ExitCode(2)
        }
        if binary {
            let bytes = item.transmissions.flatMap(\.bytes)
            if let code = bytes.withUnsafeBytes({ FileHandleOutput.standardOutput.write(raw: $0) }) { throw InputError.cannotWrite(code) }
            return
        }
        print("\(item.id) [\(item.level.rawValue)] \(item.requirements.map(\.rawValue).joined(separator: ", ")): \(item.summary)")
        for (index, step) in item.steps.enumerated() {
            switch step {
            case let .send(transmission):
                let writes = transmission.split.isEmpty ? "one write" : "\(transmission.writes(of: transmission.bytes).count) writes, \(transmission.pause) apart"
                print("\(index + 1). send \(transmission.bytes.count) bytes (\(writes)): \(transmission.label)")
                print("   " + Hex.string(transmission.bytes))
            case .endStream:
                print("\(index + 1). end the stream (half-close)")
            case let .expect(expectation):
                print("\(index + 1). expect \(expectation)")
            }
        }
    }
}
