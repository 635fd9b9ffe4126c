import DecafTestSupport
import Foundation
import Testing

/// The README's Layout table says what Package.swift builds: every module's folder is in it, and
/// nothing that is not one; and Package.swift says what each module uses.
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

    /// Modules of the platform and the toolchain, which no package declares.
    static let platform: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization", "Testing", "XCTest", "_Concurrency"]

    @Test("each target of Package.swift depends on exactly the modules its sources import")
    func dependenciesAreTheImports() throws {
        let root = FixturePaths.root
        let package = try String(contentsOf: root.appending(path: "Package.swift"), encoding: .utf8)
        var checked = 0
        for match in package.matches(of: /\.(target|executableTarget|testTarget)\(\s*name: "([A-Za-z]+)",\s*dependencies: \[([^\]]*)\](?:,\s*path: "([^"]+)")?/) {
            let name = String(match.2)
            let products = Set(match.3.matches(of: /\.product\(name: "([^"]+)"/).map { String($0.1) })
            let targets = Set(match.3.replacing(/\.product\([^)]*\)/, with: "").matches(of: /"([^"]+)"/).map { String($0.1) })
            let declared = products.union(targets)
            let folder = match.4.map(String.init) ?? (match.1 == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
            var imported: Set<String> = []
            let files = FileManager.default.enumerator(atPath: root.appending(path: folder).path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: root.appending(path: folder).appending(path: file), encoding: .utf8)
                // Only lines that can hold an import go to the (slow, in a debug build) regex.
                for line in text.split(separator: "\n") where line.contains("import ") {
                    if let module = line.firstMatch(of: /^(?:@\w+ )*import (?:(?:struct|enum|class|func|protocol) )?([A-Za-z_][A-Za-z0-9_]*)/)?.1 { imported.insert(String(module)) }
                }
            }
            imported.subtract(Self.platform)
            #expect(declared == imported, "\(name): declares \(declared.subtracting(imported).sorted()) that it does not import, imports \(imported.subtracting(declared).sorted()) that it does not declare")
            checked += 1
        }
        #expect(checked >= 20, "targets read from Package.swift: \(checked)")
    }
}
