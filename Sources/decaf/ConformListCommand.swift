import ArgumentParser
import DecafConformance

/// `decaf conform list`: the catalog, a case per line.
struct ConformListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the conformance cases: ID, level, requirements and what each checks.")

    /// The catalogs: a server's cases, a client's, a codec's.
    enum Suite: String, CaseIterable, ExpressibleByArgument {
        case server
        case client
        case codec
    }

    @Option(help: "Which cases: server (decaf conform server), client (decaf conform client) or codec (decaf conform decoder).")
    var suite: Suite = .server

    @OptionGroup var target: TargetProfileOptions
    @OptionGroup var filter: CaseFilterOptions

    func run() throws {
        let catalog = ConformanceCatalog(profile: target.profile)
        let (all, checksum) = switch suite {
        case .server: (catalog.cases, catalog.checksum)
        case .client: (ClientCatalog.cases.map(\.conformanceCase), ClientCatalog.checksum)
        case .codec: (CodecCase.all.map(\.conformanceCase), CodecCase.checksum)
        }
        let cases = try filter.select(all)
        // Columns as wide as their longest entry: an ID is never cut, so each can be pasted into
        // `decaf conform repro`.
        let idWidth = cases.map(\.id.count).max() ?? 0
        let requirementLists = cases.map { $0.requirements.map(\.rawValue).joined(separator: ",") }
        let requirementWidth = requirementLists.map(\.count).max() ?? 0
        for (item, requirements) in zip(cases, requirementLists) {
            print([item.id.padding(toLength: idWidth, withPad: " ", startingAt: 0), item.level.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0),
                   requirements.padding(toLength: requirementWidth, withPad: " ", startingAt: 0), item.summary].joined(separator: " "))
        }
        print("\(cases.count) of \(all.count) \(suite.rawValue) cases; \(ConformanceCatalog.suiteVersion), catalog \(checksum)")
    }
}
