@testable import DecafFuzz
import Foundation
import Testing

/// The directory shared with other fuzzers, in AFL++'s layout: entries numbered without a gap, read
/// from the mark of the last one taken, the marks kept across campaigns of the same name.
@Suite("the shared queue directory")
struct SyncDirectoryTests {
    @Test("each instance reads the others' new entries once, in order, stops at a gap, and goes on from its marks when started again")
    func exchange() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "decaf-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let a = try SyncDirectory(root: root, name: "a")
        let b = try SyncDirectory(root: root, name: "b")
        #expect(a.isNew && b.imports().isEmpty)
        for byte: UInt8 in 1...3 { a.save([byte], from: "test") }
        #expect(b.imports() == [[1], [2], [3]])
        #expect(b.imports().isEmpty)
        a.save([4], from: "test")
        // An entry after a gap (as a queue being written shows it) waits for the gap to fill.
        try Data([6]).write(to: root.appending(path: "a/queue/id:000005,orig:x"))
        #expect(b.imports() == [[4]])
        let again = try SyncDirectory(root: root, name: "b")
        #expect(again.imports().isEmpty, "the marks of what was read are kept")
        try Data([5]).write(to: root.appending(path: "a/queue/id:000004,orig:y"))
        #expect(again.imports() == [[5], [6]])
        let resumed = try SyncDirectory(root: root, name: "a")
        #expect(!resumed.isNew)
        resumed.save([7], from: "test")
        #expect(FileManager.default.fileExists(atPath: root.appending(path: "a/queue/id:000006,src:decaf,op:test").path))
    }
}
