import DecafConformance
import DecafNIO
import Foundation

/// The coverage map an AFL++-instrumented program writes its edge counts into: a System V shared
/// memory segment, named to the program by `__AFL_SHM_ID` (and its size by `AFL_MAP_SIZE`), as
/// afl-fuzz names it. A program built with `afl-clang-fast` attaches it when it starts; this side
/// clears it before an input and reads it after the answer. The segment is marked for removal as
/// soon as it is attached here, so it goes when this process does, however it ends (Linux lets a
/// program attach a segment so marked while it exists). Touched by one job at a time: the
/// campaign clears and reads each job's map only between that job's requests.
public final class AFLSharedMemory: @unchecked Sendable {
    /// The segment's ID, for `__AFL_SHM_ID`.
    public let id: Int32
    /// Its size in bytes: one per edge.
    public let size: Int
    private let base: UnsafeMutableRawPointer

    /// The size of AFL++'s default map, and the least this makes.
    public static let defaultSize = 1 << 16

    /// A new, cleared map of `size` bytes (at least AFL's 64 KiB).
    public init(size: Int) throws(FuzzError) {
        let size = max(size, Self.defaultSize)
        let id = shmget(IPC_PRIVATE, size, IPC_CREAT | IPC_EXCL | 0o600)
        guard id >= 0 else { throw .cannotStart("--coverage: no shared memory for the coverage map (\(String(cString: strerror(errno))))") }
        guard let base = shmat(id, nil, 0), base != UnsafeMutableRawPointer(bitPattern: -1) else {
            shmctl(id, IPC_RMID, nil)
            throw .cannotStart("--coverage: the coverage map cannot be attached (\(String(cString: strerror(errno))))")
        }
        shmctl(id, IPC_RMID, nil)
        self.id = id
        self.size = size
        self.base = base
        clear()
    }

    deinit {
        shmdt(base)
    }

    /// The environment that names this map to an instrumented program.
    public var environment: [String: String] {
        ["__AFL_SHM_ID": String(id), "AFL_MAP_SIZE": String(size)]
    }

    /// Zeroes every count: before an input.
    public func clear() {
        base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    }

    /// The edges the program hit since the last `clear`, bucketed (`CoverageMap.trace(of:)`).
    public func trace() -> [UInt32] {
        CoverageMap.trace(of: UnsafeRawBufferPointer(start: base, count: size))
    }

    /// The map size an AFL++-instrumented `command` needs, as it says when started with
    /// `AFL_DUMP_MAP_SIZE` (it prints the size and exits); nil for a program that is not
    /// instrumented so (it reads its empty input and ends, or is stopped after `limit`).
    public static func mapSize(of command: [String], limit: Duration = .seconds(10)) -> Int? {
        guard let process = try? SpawnedProcess(executable: TesteeLaunch.executable, arguments: command,
                                                environment: TesteeLaunch.environment(["AFL_DUMP_MAP_SIZE": "1", "AFL_QUIET": "1"]),
                                                standardInput: .null, standardOutput: .pipe, standardError: .null),
              let output = process.pipes.output else { return nil }
        defer { close(output) }
        if process.wait(limit: limit) == nil { process.stop() }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(output, &bytes, bytes.count)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
