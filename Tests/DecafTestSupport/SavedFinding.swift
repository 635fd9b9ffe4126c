import Foundation

/// A finding `decaf fuzz` saved: the name of its .json in the findings directory, and what the
/// .json says.
public struct SavedFinding {
    public var name: String
    public var record: [String: Any]

    /// The oracle that judged the finding (`crash`, `hang`, `disagreement`).
    public var oracle: String? { record["oracle"] as? String }
    /// The reproducer's length in bytes.
    public var length: Int? { record["length"] as? Int }

    /// Why a directory does not hold the one finding a test expects.
    public struct NotOne: Error, CustomStringConvertible {
        public var names: [String]
        public var description: String { "one finding expected, found \(names.count): \(names)" }
    }

    /// The one finding saved in `directory`, as a campaign stopped at its first leaves it.
    public static func only(in directory: URL) throws -> SavedFinding {
        let saved = try all(in: directory)
        guard saved.count == 1, let finding = saved.first else { throw NotOne(names: saved.map(\.name)) }
        return finding
    }

    /// Every finding saved in `directory`, by name.
    public static func all(in directory: URL) throws -> [SavedFinding] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("finding-") && $0.hasSuffix(".json") }.sorted().map { name in
            let record = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appending(path: name))) as? [String: Any] ?? [:]
            return SavedFinding(name: name, record: record)
        }
    }
}
