import Foundation

/// A program some tests run beside Decaf. `make deps` installs each one; a test that needs one that
/// is missing is skipped with `skipReason`, never failed, so `swift test` on a bare machine says
/// what it did not check instead of reporting a product bug.
public struct ExternalTool: Sendable {
    /// The Wireshark plugin and live-capture tests.
    public static let tshark = ExternalTool(name: "tshark", package: "tshark")
    /// The JUnit schema check.
    public static let xmllint = ExternalTool(name: "xmllint", package: "libxml2-utils")
    /// The Wireshark plugin's Lua syntax check: the compiler of Lua 5.2, the Lua of Wireshark 4.0.
    public static let luac = ExternalTool(name: "luac5.2", package: "lua5.2")
    /// The C reference testee's compiler (zlib's headers come with the package's own libraries).
    public static let cc = ExternalTool(name: "cc", package: "gcc")
    /// AFL++'s compiler: the C reference testee built to report its coverage (`--coverage`).
    public static let aflClangFast = ExternalTool(name: "afl-clang-fast", package: "afl++")
    /// AFL++'s fuzzer, beside decaf fuzz on one shared directory (`--sync-dir`).
    public static let aflFuzz = ExternalTool(name: "afl-fuzz", package: "afl++")
    /// The reference testee, the reference encoder, and test scripts.
    public static let python3 = ExternalTool(name: "python3", package: "python3")

    public let name: String
    /// The Debian package that has it.
    public let package: String

    /// Where the program is on PATH, or nil when it is not installed.
    public var path: String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return directories.lazy.map { "\($0)/\(self.name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public var isInstalled: Bool { path != nil }

    /// The one line a skipped test shows.
    public var skipReason: String { "\(name) is not installed; `make deps` installs it (Debian package \(package))" }
}
