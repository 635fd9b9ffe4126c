import Foundation

/// Where the repository's committed files are, found from this source file's location.
public enum FixturePaths {
    /// The repository root.
    public static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let fixtures = root.appending(path: "Fixtures")
    public static let vectors = fixtures.appending(path: "vectors")

    /// The built `decaf` executable beside the running test bundle.
    public static var decafExecutable: URL {
        let bundle = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appending(path: "decaf")
    }
}
