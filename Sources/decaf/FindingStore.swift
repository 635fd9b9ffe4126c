import DecafFuzz
import DecafJSON
import DecafWire
import Foundation
import Synchronization

/// Saves each finding as it comes, as NAME.bin (the input) and NAME.json (what it is), numbered
/// after those already in the directory, so a second campaign adds to the first's.
final class FindingStore: Sendable {
    private let directory: URL
    /// The directory as the user gave it, for the lines that say where a finding is.
    private let shown: String
    private let seed: UInt64
    private let options: DecodeOptions
    private let testee: [String]
    private let saved = Mutex(0)

    init(directory: URL, shown: String, seed: UInt64, options: DecodeOptions, testee: [String]) {
        self.directory = directory
        self.shown = shown
        self.seed = seed
        self.options = options
        self.testee = testee
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        saved.withLock { $0 = existing.filter { $0.hasPrefix("finding-") && $0.hasSuffix(".json") }.count }
    }

    /// What follows the finding's path on the replay's command line: the server, or the testee's
    /// command after `--` (after `--client` for a client).
    private var replayArguments: String {
        switch testee.first {
        case "--server": testee.joined(separator: " ")
        case "--client": (["--client", "--"] + testee.dropFirst()).joined(separator: " ")
        default: "-- " + testee.joined(separator: " ")
        }
    }

    /// Writes `finding` and returns its paragraph and where it is; a file that cannot be written
    /// is said in place of its name, and the paragraph still printed.
    func save(_ finding: FuzzFinding) -> String {
        let number = saved.withLock { count in
            count += 1
            return count
        }
        let name = "finding-\(number)-\(finding.oracle.rawValue)"
        let base = directory.appending(path: name)
        let record = FuzzFindingJSON(finding, seed: seed, options: options, testee: testee)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(finding.input).write(to: base.appendingPathExtension("bin"))
            try Data(SortedJSONEncoder.bytes(record, pretty: true) + [UInt8(ascii: "\n")]).write(to: base.appendingPathExtension("json"))
            let path = (shown as NSString).appendingPathComponent(name)
            return "\(finding.paragraph)\n  saved: \(path).json and .bin; replay: decaf fuzz replay \(path).json \(replayArguments)"
        } catch {
            return "\(finding.paragraph)\n  not saved: \(error.localizedDescription)"
        }
    }
}
