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

    /// Reads the next bytes into `buffer`, as many as one read gives; 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
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
    /// `dissector`, a chunk at a time, its findings into `sink`, then ends it; shows progress on a
    /// terminal for a file of known size.
    mutating func feed<Dissector: ChunkDissector, Sink: CaptureSink>(_ first: [UInt8], to dissector: inout Dissector, into sink: inout Sink) throws {
        var progress = ProgressBar(total: size)
        first.withUnsafeBytes { dissector.append($0, to: &sink) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try read(into: buffer)
            if count == 0 { break }
            dissector.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: &sink)
            progress.update(bytesRead)
        }
        dissector.finish(to: &sink)
        progress.clear()
    }

    /// The first bytes of the input, at least 4 unless it is shorter: enough to tell its format.
    mutating func head() throws -> [UInt8] {
        var head = try next()
        while head.count < 4 {
            let more = try next()
            if more.isEmpty { break }
            head += more
        }
        return head
    }

    /// The next chunk; empty at the end.
    mutating func next() throws -> [UInt8] {
        let data: Data
        do {
            data = try handle.read(upToCount: Self.chunkSize) ?? Data()
        } catch {
            throw InputError("cannot read \(name) after \(bytesRead) bytes: \(error.localizedDescription)")
        }
        bytesRead += data.count
        return [UInt8](data)
    }
}
