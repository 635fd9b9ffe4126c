import DecafTestSupport
import Foundation
import Testing

/// The README's Layout table says what Package.swift builds: every module's folder is in it, and
/// nothing that is not one.
@Suite("the README's layout")
struct LayoutTests {
    @Test("the Layout table names exactly the folders of Package.swift's targets under Sources/")
    func layoutMatchesThePackage() throws {
        let readme = try String(contentsOf: FixturePaths.root.appending(path: "README.md"), encoding: .utf8)
        let table = readme.components(separatedBy: "## Layout").last ?? ""
        let listed = Set(table.split(separator: "\n").filter { $0.hasPrefix("| `Sources/") }
            .flatMap { row in String(row.split(separator: "|")[0]).matches(of: /`Sources\/([A-Za-z]+)`/).map { String($0.1) } })
        let package = try String(contentsOf: FixturePaths.root.appending(path: "Package.swift"), encoding: .utf8)
        let targets = Set(package.matches(of: /\.(?:target|executableTarget|systemLibrary)\(\s*name: "([A-Za-z]+)"(?:,\s*dependencies: \[[^\]]*\])?(?:,\s*path: "([^"]+)")?/)
            .filter { $0.2 == nil || $0.2!.hasPrefix("Sources/") }.map { String($0.1) })
        let folders = Set(try FileManager.default.contentsOfDirectory(atPath: FixturePaths.root.appending(path: "Sources").path).filter { !$0.hasPrefix(".") })
        #expect(listed == targets, "README lists \(listed.subtracting(targets).sorted()) that Package.swift does not build, and leaves out \(targets.subtracting(listed).sorted())")
        #expect(targets == folders, "Package.swift's targets \(targets.sorted()) against Sources/ \(folders.sorted())")
    }
}
