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
        for item in cases {
            let requirements = item.requirements.map(\.rawValue).joined(separator: ",")
            print("\(item.id.padding(toLength: 44, withPad: " ", startingAt: 0)) \(item.level.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)) \(requirements.padding(toLength: 24, withPad: " ", startingAt: 0)) \(item.summary)")
        }
        print("\(cases.count) of \(all.count) \(suite.rawValue) cases; \(ConformanceCatalog.suiteVersion), catalog \(checksum)")
    }
}
