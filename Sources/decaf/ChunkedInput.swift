import Foundation

/// A file or standard input read in chunks, so captures of any size stream through.
struct ChunkedInput {
    static let chunkSize = 1 << 20

    private let handle: FileHandle
    /// The file's size, when it is a regular file.
    let size: Int?
    private(set) var bytesRead = 0

    init(path: String?) throws {
        if let path, path != "-" {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError("cannot read \(path)") }
            self.handle = handle
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            size = (attributes?[.size] as? NSNumber)?.intValue
        } else {
            handle = .standardInput
            size = nil
        }
    }

    /// The next chunk; empty at the end.
    mutating func next() throws -> [UInt8] {
        let data = try handle.read(upToCount: Self.chunkSize) ?? Data()
        bytesRead += data.count
        return [UInt8](data)
    }
}
