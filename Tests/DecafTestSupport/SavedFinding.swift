import Foundation

/// A finding `decaf fuzz` saved: the name of its .json in the findings directory, and what the
/// .json says.
public struct SavedFinding {
    public var name: String
    public var record: [String: Any]

    /// Every finding saved in `directory`, by name.
    public static func all(in directory: URL) throws -> [SavedFinding] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("finding-") && $0.hasSuffix(".json") }.sorted().map { name in
            let record = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appending(path: name))) as? [String: Any] ?? [:]
            return SavedFinding(name: name, record: record)
        }
    }
}
