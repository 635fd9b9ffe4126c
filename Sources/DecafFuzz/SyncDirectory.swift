import Foundation

/// A campaign's place in a directory shared with other fuzzers, in AFL++'s layout (`afl-fuzz -o
/// DIR -S NAME`): each instance writes the inputs that found something new into `DIR/NAME/queue/`
/// as `id:000000,...`, numbered from 0 without a gap, and reads the others' queues from the
/// entry after the last it took (AFL++ keeps that mark in `DIR/NAME/.synced/PEER`; so does this).
/// Several `decaf fuzz` instances and `afl-fuzz` instances on one instrumented target exchange
/// inputs so, on one machine or many sharing the directory, with no coordinator. Whoever holds it
/// owns the queue it writes; what it reads is bounded (`fileLimit`, `importLimit`, `importBytes`).
public final class SyncDirectory {
    /// The shared directory.
    public let root: URL
    /// This instance's name: its folder under `root`.
    public let name: String
    private var queue: URL { root.appending(path: name).appending(path: "queue") }
    /// The id the next entry written takes.
    private var nextID = 0
    /// For each other instance, the id of the next entry of its queue to read.
    private var marks: [String: Int] = [:]
    /// How often the campaign reads the others' queues (`--sync-interval`; afl-fuzz's is
    /// AFL_SYNC_TIME, in minutes).
    public var interval: Duration = .seconds(10)

    /// The largest file taken from another queue (AFL++'s MAX_FILE).
    public static let fileLimit = 1 << 20
    /// The most entries one `imports()` takes, over every other queue, and the most bytes.
    public static let importLimit = 1000
    public static let importBytes = 16 << 20

    /// Joins `root` as `name`: makes `root/name/queue/`, and goes on from what an earlier
    /// campaign of the same name left there (its entries and the marks of what it read).
    public init(root: URL, name: String) throws(FuzzError) {
        self.root = root
        self.name = name
        let files = FileManager.default
        do {
            try files.createDirectory(at: root.appending(path: name).appending(path: "queue"), withIntermediateDirectories: true)
            try files.createDirectory(at: root.appending(path: name).appending(path: ".synced"), withIntermediateDirectories: true)
        } catch {
            throw .cannotStart("--sync-dir \(root.path): cannot make \(name)/queue there (\(error.localizedDescription))")
        }
        nextID = Self.entries(in: queue).count
        isNew = nextID == 0
        for peer in (try? files.contentsOfDirectory(atPath: root.appending(path: name).appending(path: ".synced").path)) ?? [] where !peer.hasSuffix(".last") {
            if let data = files.contents(atPath: root.appending(path: name).appending(path: ".synced").appending(path: peer).path), data.count == 4 {
                marks[peer] = Int(data.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            }
        }
    }

    /// Whether this instance's queue was empty when it joined: a new instance, not one going on.
    public private(set) var isNew = true

    /// Writes `bytes` as the next entry of this instance's queue.
    public func save(_ bytes: [UInt8], from origin: String) {
        let file = queue.appending(path: String(format: "id:%06d,src:decaf,op:%@", nextID, origin))
        guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes)) else { return }
        nextID += 1
    }

    /// The entries the other instances queued since the last call, oldest first, each at most
    /// `fileLimit` bytes (a larger one is passed over), at most `importLimit` and `importBytes` in
    /// all (the rest comes next time); the marks of what was read are kept in `.synced/`, as
    /// afl-fuzz keeps them.
    public func imports() -> [[UInt8]] {
        let files = FileManager.default
        var taken: [[UInt8]] = []
        var bytes = 0
        let peers = ((try? files.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") && $0 != name }.sorted()
        for peer in peers where taken.count < Self.importLimit && bytes < Self.importBytes {
            let entries = Self.entries(in: root.appending(path: peer).appending(path: "queue"))
            var next = marks[peer] ?? 0
            // AFL++ reads a queue's entries in order from the next id, and stops at a gap.
            while next < entries.count, taken.count < Self.importLimit, bytes < Self.importBytes, entries[next].id == next {
                let path = root.appending(path: peer).appending(path: "queue").appending(path: entries[next].file).path
                if let size = (try? files.attributesOfItem(atPath: path))?[.size] as? Int, size > 0, size <= Self.fileLimit,
                   let data = files.contents(atPath: path) {
                    taken.append(Array(data))
                    bytes += data.count
                }
                next += 1
            }
            if next != marks[peer] ?? 0 {
                marks[peer] = next
                var mark = UInt32(next)
                _ = files.createFile(atPath: root.appending(path: name).appending(path: ".synced").appending(path: peer).path,
                                     contents: Data(bytes: &mark, count: 4))
            }
        }
        return taken
    }

    /// The entries of a queue, by id: the files named `id:NNNNNN...`, sorted.
    private static func entries(in queue: URL) -> [(id: Int, file: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: queue.path)) ?? []
        return names.compactMap { name in
            guard name.hasPrefix("id:"), let id = Int(name.dropFirst(3).prefix(6)) else { return nil }
            return (id, name)
        }.sorted { $0.id < $1.id }
    }
}

extension FuzzSettings {
    /// The campaign's place in the shared directory, when it has one.
    func syncDirectory() throws(FuzzError) -> SyncDirectory? {
        guard let sync else { return nil }
        let directory = try SyncDirectory(root: URL(filePath: sync.directory), name: sync.name)
        directory.interval = syncInterval
        return directory
    }
}
