import DecafDissect
import DecafWire
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file or standard input read in chunks, so captures of any size stream through.
struct ChunkedInput {
    static let chunkSize = 1 << 20

    private let handle: FileHandle
    private var descriptor: Int32 { handle.fileDescriptor }
    private let name: String
    /// The file's size, when it is a regular file.
    let size: Int?
    private(set) var bytesRead = 0

    /// Opens `path` ("-" or nil: standard input), or says in the user's words why it cannot:
    /// what the system said, and the likely mistake (a directory, hex given as a file name).
    init(path: String?) throws {
        guard let path, path != "-" else {
            handle = .standardInput
            name = "standard input"
            size = nil
            return
        }
        name = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputError("\(path) is a directory; give a capture (pcap, pcapng) or a file of frames")
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno)).lowercased()
            let looksLikeHex = Hex.bytes(path) != nil
            throw InputError("cannot read \(path): \(reason)" + (looksLikeHex ? "; to dissect hex, give it with --hex" : ""))
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        size = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
    }

    /// Reads the next bytes into `buffer`, as many as one read gives; 0 at the end, or once `stop`
    /// says so (checked while the input has nothing to give, every 200 ms).
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, until stop: (() -> Bool)? = nil) throws -> Int {
        if let stop {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while !stop() {
                let polled = poll(&ready, 1, 200)
                if polled > 0 || (polled < 0 && errno != EINTR) { break }
            }
            if stop() { return 0 }
        }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 {
                bytesRead += count
                return count
            }
            guard errno == EINTR else {
                throw InputError("cannot read \(name) after \(bytesRead) bytes: \(String(cString: strerror(errno)).lowercased())")
            }
        }
    }

    /// Feeds `first` (what was read to tell the input's format) and the rest of the input to
    /// `dissector`, a chunk at a time, its findings into `sink`, then ends it unless `ending` is
    /// false (more input follows); shows progress on a terminal for a file of known size.
    mutating func feed<Dissector: ChunkDissector, Sink: CaptureSink>(_ first: [UInt8], to dissector: inout Dissector, into sink: inout Sink,
                                                                     ending: Bool = true, until stop: (() -> Bool)? = nil) throws {
        var progress = ProgressBar(total: size)
        first.withUnsafeBytes { dissector.append($0, to: &sink) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try read(into: buffer, until: stop)
            if count == 0 { break }
            dissector.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: &sink)
            progress.update(bytesRead)
        }
        if ending { dissector.finish(to: &sink) }
        progress.clear()
    }

    /// The first bytes of the input, at least 4 unless it is shorter: enough to tell its format.
    mutating func head(until stop: (() -> Bool)? = nil) throws -> [UInt8] {
        var head = try next(until: stop)
        while head.count < 4 {
            let more = try next(until: stop)
            if more.isEmpty { break }
            head += more
        }
        return head
    }

    /// The next chunk, as much as one read gives (a pipe's writer may send a packet at a time);
    /// empty at the end.
    mutating func next(until stop: (() -> Bool)? = nil) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        let count = try chunk.withUnsafeMutableBytes { try read(into: $0, until: stop) }
        chunk.removeSubrange(count...)
        return chunk
    }
}
