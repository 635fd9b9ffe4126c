import DecafWire
import Foundation

/// The golden fixtures as files: the vector JSON and one `.bin` per frame vector. Generation is
/// deterministic, so `verify` can tell whether a committed fixtures directory is current.
public enum FixtureSet {
    public static let generatorVersion = "decaf-fixtures 1"
    /// The subdirectories the generator owns; anything else in them is stale.
    public static let ownedDirectories = ["vectors", "frames"]

    /// Every generated file's bytes, by path relative to the fixtures directory.
    public static func files() throws -> [String: [UInt8]] {
        let frameFiles = FrameVectorFile.all
        try checkIdentifiers(frameFiles)
        var files: [String: [UInt8]] = [:]
        for file in frameFiles {
            files["vectors/\(file.name).json"] = try json(FrameVectorFileJSON(file, generatorVersion: generatorVersion))
            for group in file.groups {
                for vector in group.tests {
                    files["frames/\(group.name)/\(vector.tcId).bin"] = vector.bytes
                }
            }
        }
        files["vectors/session-id.json"] = try json(SessionIDVectorFileJSON(SessionIDVector.all, generatorVersion: generatorVersion))
        return files
    }

    /// Writes every file under `directory`, replacing the owned subdirectories; returns the count.
    @discardableResult
    public static func write(to directory: URL) throws -> Int {
        let files = try files()
        let manager = FileManager.default
        for owned in ownedDirectories {
            let url = directory.appending(path: owned)
            if manager.fileExists(atPath: url.path) { try manager.removeItem(at: url) }
        }
        for (path, bytes) in files {
            let url = directory.appending(path: path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return files.count
    }

    /// The differences between `directory` and a fresh generation; empty when it is current.
    public static func verify(in directory: URL) throws -> [FixtureDifference] {
        let expected = try files()
        var differences: [FixtureDifference] = []
        for (path, bytes) in expected.sorted(by: { $0.key < $1.key }) {
            guard let data = FileManager.default.contents(atPath: directory.appending(path: path).path) else {
                differences.append(.missing(path))
                continue
            }
            if [UInt8](data) != bytes { differences.append(.changed(path)) }
        }
        for owned in ownedDirectories {
            for path in existingFiles(under: directory, in: owned) where expected[path] == nil {
                differences.append(.unexpected(path))
            }
        }
        return differences
    }

    private static func json(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]
    }

    private static func existingFiles(under directory: URL, in owned: String) -> [String] {
        let root = directory.appending(path: owned)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        let prefix = directory.standardizedFileURL.path + "/"
        return enumerator.compactMap { item in
            guard let url = item as? URL, (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { return nil }
            return String(url.standardizedFileURL.path.dropFirst(prefix.count))
        }.sorted()
    }

    /// Throws when two vectors share a tcId or two groups share a name.
    private static func checkIdentifiers(_ files: [FrameVectorFile]) throws {
        var seenIDs = Set<Int>()
        var seenGroups = Set<String>()
        for group in files.flatMap(\.groups) {
            guard seenGroups.insert(group.name).inserted else { throw FixtureError.duplicateGroup(group.name) }
            for vector in group.tests where !seenIDs.insert(vector.tcId).inserted {
                throw FixtureError.duplicateTcId(vector.tcId)
            }
        }
    }
}
