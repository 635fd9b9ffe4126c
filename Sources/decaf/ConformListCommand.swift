import ArgumentParser
import DecafConformance

/// `decaf conform list`: the catalog, a case per line.
struct ConformListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the conformance cases: ID, level, requirements and what each checks.")

    @OptionGroup var target: TargetProfileOptions
    @OptionGroup var filter: CaseFilterOptions

    func run() throws {
        let catalog = ConformanceCatalog(profile: target.profile)
        let cases = try filter.select(catalog.cases)
        for item in cases {
            let requirements = item.requirements.map(\.rawValue).joined(separator: ",")
            print("\(item.id.padding(toLength: 44, withPad: " ", startingAt: 0)) \(item.level.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)) \(requirements.padding(toLength: 24, withPad: " ", startingAt: 0)) \(item.summary)")
        }
        print("\(cases.count) of \(catalog.cases.count) cases; \(ConformanceCatalog.suiteVersion), catalog \(catalog.checksum)")
    }
}
