import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child's pipe, read to its end on a thread of its own, so the child never blocks on a full
/// pipe; what has come so far can be read, or waited for, at any time.
final class OutputDrain: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: [UInt8] = []
    private var ended = false

    /// Starts reading `descriptor`, which it closes at the end; `group` is left when the pipe ends.
    init(_ descriptor: Int32, _ group: DispatchGroup? = nil) {
        group?.enter()
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                condition.withLock {
                    data += chunk[..<count]
                    condition.broadcast()
                }
            }
            close(descriptor)
            condition.withLock {
                ended = true
                condition.broadcast()
            }
            group?.leave()
        }.start()
    }

    /// Everything read so far.
    var bytes: [UInt8] { condition.withLock { data } }

    /// The first line, once it has come; nil if the pipe ends or `deadline` passes first.
    func firstLine(by deadline: Date) -> String? {
        line(where: { _ in true }, by: deadline)
    }

    /// The `count`-th whole line `matches` accepts, once it has come; nil if the pipe ends or
    /// `deadline` passes first.
    func line(where matches: (String) -> Bool, count: Int = 1, by deadline: Date) -> String? {
        condition.withLock {
            var checked = 0
            var found = 0
            while true {
                while let newline = data[checked...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: data[checked..<newline], as: UTF8.self)
                    checked = newline + 1
                    if matches(line) {
                        found += 1
                        if found == count { return line }
                    }
                }
                guard !ended, condition.wait(until: deadline) else { return nil }
            }
        }
    }
}
