@testable import DecafConformance
@testable import DecafFuzz
import Foundation
import Synchronization
import Testing

/// AFL++'s rules for what an input adds (a new edge, a new count bucket), the trace read off a
/// map of counts, the shared memory segment an instrumented program writes into, and the fuzz
/// loop keeping an input that adds something.
@Suite("coverage feedback")
struct CoverageMapTests {
    @Test("counts fall into AFL's buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128 and more")
    func buckets() {
        let expected: [(UInt8, UInt8)] = [(0, 0), (1, 1), (2, 2), (3, 4), (4, 8), (7, 8), (8, 16), (15, 16), (16, 32), (31, 32), (32, 64), (127, 64), (128, 128), (255, 128)]
        for (count, bucket) in expected { #expect(CoverageMap.bucket(count) == bucket, "\(count)") }
    }

    @Test("a trace lists each edge hit with its bucket, in index order, wherever it sits in the map")
    func trace() {
        var counts = [UInt8](repeating: 0, count: 8 * 5 + 3)
        counts[0] = 1
        counts[9] = 5
        counts[17] = 200
        counts[42] = 3
        let trace = counts.withUnsafeBytes { CoverageMap.trace(of: $0) }
        let expected: [UInt32] = [0 << 8 | 1, 9 << 8 | 8, 17 << 8 | 128, 42 << 8 | 4]
        #expect(trace == expected)
        #expect([UInt8](repeating: 0, count: 64).withUnsafeBytes { CoverageMap.trace(of: $0) }.isEmpty)
    }

    @Test("an input is new for an edge no input hit, then for a bucket the edge never reached; never twice for the same")
    func novelty() {
        var map = CoverageMap(size: 64)
        #expect(map.merge([3 << 8 | 1, 7 << 8 | 2]) == .newEdge)
        #expect(map.edges == 2)
        #expect(map.merge([3 << 8 | 1, 7 << 8 | 2]) == .nothing)
        #expect(map.merge([3 << 8 | 8]) == .newCount)
        #expect(map.merge([3 << 8 | 8, 9 << 8 | 1]) == .newEdge)
        #expect(map.edges == 3)
        #expect(map.merge([100 << 8 | 1]) == .nothing, "an edge past the map is not counted")
    }

    @Test("the shared map is named to a program by its ID, and what is written into it is read back and cleared")
    func sharedMemory() throws {
        let map = try AFLSharedMemory(size: 100)
        #expect(map.size == AFLSharedMemory.defaultSize)
        #expect(map.environment["__AFL_SHM_ID"] == String(map.id) && map.environment["AFL_MAP_SIZE"] == String(map.size))
        // As an instrumented program does: attach by ID (the segment is already marked for removal).
        let program = try #require(shmat(map.id, nil, 0))
        #expect(program != UnsafeMutableRawPointer(bitPattern: -1))
        defer { shmdt(program) }
        program.storeBytes(of: 2, toByteOffset: 5, as: UInt8.self)
        program.storeBytes(of: 40, toByteOffset: map.size - 1, as: UInt8.self)
        let last = UInt32(map.size - 1) << 8 | 64
        #expect(map.trace() == [5 << 8 | 2, last])
        map.clear()
        #expect(map.trace().isEmpty)
    }

    @Test("a program that does not say its map size (not instrumented) has none")
    func mapSizeOfPlainProgram() {
        #expect(AFLSharedMemory.mapSize(of: ["true"]) == nil)
        #expect(AFLSharedMemory.mapSize(of: ["sh", "-c", "echo 4096"]) == 4096, "what an instrumented program prints")
    }

    @Test("the loop keeps in its corpus the inputs whose trace is new, and only those, and counts the edges")
    func loopKeepsNewInputs() async throws {
        let loop = FuzzLoop<[UInt8]>(corpus: FuzzLoopTests.corpus, settings: FuzzSettings(seed: 3, runs: 60, jobs: 2))
        let lengths = Mutex<[Int: Int]>([:])
        let state = try await loop.run(
            make: { bytes, _, _ in bytes },
            attempt: { bytes, job in
                lengths.withLock { $0[job] = bytes.count }
                return FuzzLoopTests.attempt(bytes)
            },
            handle: { _, _, _, _ in .undisturbed },
            answer: { _ in "" },
            // Each input "hits" the edge of its length: a new length is a new edge.
            traces: { job in [UInt32(lengths.withLock { $0[job]! } % 256) << 8 | 1] },
            coverage: CoverageMap(size: 256), progress: { _ in })
        #expect(state.inputs == 60)
        #expect(state.edges == state.corpusGrowth && state.corpusGrowth > 1, "edges \(String(describing: state.edges)), kept \(state.corpusGrowth)")
    }
}

