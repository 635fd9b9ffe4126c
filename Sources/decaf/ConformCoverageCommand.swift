import ArgumentParser
import DecafConformance
import DecafMonitor
import DecafPeer

/// `decaf conform coverage`: which cases check each requirement in each role, at which level,
/// and where a MUST goes unchecked or a required case checks no MUST.
struct ConformCoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Show, for each requirement and role (server, client, codec), its level and the cases that check it.",
        discussion: """
        A cell reads "MUST  3 required": how strongly the requirement binds the role (MUST, SHOULD, MAY, or - where it \
        does not), then how many cases of that role's suite check it, at each level. A cell marked ! is a MUST that no \
        required case checks. Exit status: 0 when every MUST has a required case in each role it binds and every \
        required case checks a MUST; 1 otherwise. The monitor column names the ends decaf monitor judges a requirement \
        for from a capture alone (passively); "-" where only a suite that drives an end checks it.
        With --targets, a suite's own mutation coverage instead: each required case and the targets that break what it \
        checks. For the codec suite (--role codec, the default) the catalogued mistakes (decaf testee decoder \
        --list-mistakes) whose codec fails it; for the server suite (--role server) the faults of the reference peer \
        (decaf peer --list-faults) or the codec mistakes of its decoder (decaf peer --mistake) under which it fails, \
        among those that break a requirement the case checks, and two at once where no one fails it (a stream that ends \
        after bytes to refuse fails only a peer that keeps the connection open and misses the end); for the client suite \
        (--role client) the faults of the reference client (decaf testee client --list-faults) under which it fails, \
        among those that break a requirement it checks. Each case is judged against the peer or the client in memory, on \
        a virtual clock (seconds, not a run). A required case no target fails is listed as NONE (or as failing the \
        faultless peer or client), and the exit status is 1.
        """
    )

    @Flag(help: "List each cell's cases under its row.")
    var cases = false

    @Flag(help: "List each required case of a suite (--role) with the targets that fail it.")
    var targets = false

    @Option(help: "With --targets, the suite: codec (catalogued mistakes), server (the reference peer's faults and mistakes) or client (the reference client's faults).")
    var role: TargetRole = .codec

    /// The suites whose targets `--targets` lists.
    enum TargetRole: String, ExpressibleByArgument, CaseIterable {
        case codec, server, client
    }

    func validate() throws {
        if role != .codec && !targets { throw ValidationError("--role goes with --targets") }
    }

    func run() throws {
        guard targets else {
            let matrix = CoverageMatrix()
            let passive = MonitorCatalog.judged.mapValues { ends in ends.sorted().map(\.rawValue) }
            print(matrix.text(listingCases: cases, passive: passive), terminator: "")
            if !matrix.gaps.isEmpty || !matrix.overreaches.isEmpty { throw ExitCode(1) }
            return
        }
        switch role {
        case .codec:
            let coverage = CodecTargets()
            try list(coverage.targets.filter { $0.level == .required }.map { target in
                (target.id, target.mistakes.isEmpty ? nil : target.mistakes.map(\.name).joined(separator: ", "))
            }, missing: coverage.missing.count, of: "required codec cases fail against a catalogued mistake")
        case .server:
            let coverage = try ServerTargets()
            try list(coverage.targets.filter { $0.level == .required }.map { target in
                row(target.id, target.breakages.map(\.option), reference: target.reference, of: "peer")
            }, missing: coverage.missing.count, of: "required server cases fail against the reference peer with a fault or a codec mistake (or two at once)")
        case .client:
            let coverage = try ClientTargets()
            try list(coverage.targets.filter { $0.level == .required }.map { target in
                row(target.id, target.faults.map { "--fault \($0.name)" }, reference: target.reference, of: "client")
            }, missing: coverage.missing.count, of: "required client cases fail against the reference client with a fault")
        }
    }

    /// A case's row: its targets' options, none (nil), or what the faultless `implementation`
    /// got when it did not pass (`reference`).
    private func row(_ id: String, _ options: [String], reference: Verdict?, of implementation: String) -> (id: String, targets: String?) {
        if let reference { return (id, "the faultless \(implementation) does not pass it (\(reference.kind.rawValue): \(reference.reason))") }
        return (id, options.isEmpty ? nil : options.joined(separator: ", "))
    }

    /// Prints each required case with its targets (NONE for nil), then the count of those with
    /// one; exit status 1 when `missing` is not 0.
    private func list(_ rows: [(id: String, targets: String?)], missing: Int, of what: String) throws {
        let width = rows.map(\.id.count).max() ?? 0
        for row in rows {
            print("\(row.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(row.targets ?? "NONE")")
        }
        print("\(rows.count - missing) of \(rows.count) \(what)" + (missing == 0 ? "" : "; \(missing) against none (NONE above)"))
        if missing != 0 { throw ExitCode(1) }
    }
}
