/// Why a capture file cannot be read further: the file offset of the block or record at fault and
/// what is wrong with it. Packets before it were read and stay valid.
public struct CaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    public var fileOffset: Int
    public var message: String

    public init(fileOffset: Int, _ message: String) {
        self.fileOffset = fileOffset
        self.message = message
    }

    public var description: String { "capture file offset \(fileOffset): \(message)" }
}
