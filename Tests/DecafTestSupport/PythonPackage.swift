import DecafNIO

/// A Python package some tests import. `make deps` installs each from PyPI; a test that needs one
/// that is missing is skipped with `skipReason`, as a missing `ExternalTool` is.
public struct PythonPackage: Sendable {
    /// toxiproxy's own Python client, driving `decaf proxy --control`.
    public static let toxiproxy = PythonPackage(module: "toxiproxy", package: "toxiproxy-python")

    /// What `import` names.
    public let module: String
    /// Its name on PyPI.
    public let package: String

    /// Whether python3 can import it.
    public var isInstalled: Bool {
        guard let python = ExternalTool.python3.path else { return false }
        guard let process = try? SpawnedProcess(executable: python, arguments: ["-c", "import \(module)"]) else { return false }
        return process.wait() == .exited(status: 0)
    }

    /// The one line a skipped test shows.
    public var skipReason: String { "the Python package \(package) is not installed; `make deps` installs it (PyPI)" }
}
