#if canImport(Glibc)
import Glibc
#endif

/// Writes a listing to standard output in order, with write(2) and nothing else. Standard output is
/// shared: a shell's `{ decaf …; echo; } > file` or `xargs -P` hands several writers one open file,
/// so it is never reopened and its offset never tracked or moved; each write lands where the last
/// writer left the offset. Nothing is written after the first write refused (a full disk). With a
/// `width` (a terminal's), each line longer than it is cut to fit, ending in "…".
public struct StandardOutputFile: OrderedByteSink {
    private let output: FileHandleOutput
    private let width: Int?
    /// Columns of the line being written, whether it was cut, and the bytes of its last column,
    /// held until it is known whether the line ends there or goes on (then "…" takes its place).
    private var column = 0
    private var cut = false
    private var held: [UInt8] = []
    /// The error number of the first write refused.
    public private(set) var failure: Int32?

    public init(_ output: FileHandleOutput = .standardOutput, width: Int? = nil) {
        self.output = output
        self.width = width.map { max(8, $0) }
    }

    /// The width of the terminal standard output is, when it is one: what it says, or $COLUMNS,
    /// or 80. Nil when standard output is not a terminal.
    public static var terminalWidth: Int? {
        guard isatty(1) == 1 else { return nil }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 0 { return columns }
        return 80
    }

    /// Writes `bytes` after everything written before.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        guard let width else {
            failure = output.write(raw: bytes)
            return
        }
        var fitted: [UInt8] = []
        fitted.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                fitted += held
                fitted.append(byte)
                held = []
                column = 0
                cut = false
                continue
            }
            if cut { continue }
            // A byte that continues a UTF-8 character adds no column.
            let starts = byte & 0xC0 != 0x80
            if starts { column += 1 }
            if column < width {
                fitted.append(byte)
            } else if column == width {
                held.append(byte)
            } else {
                fitted += Array("…".utf8)
                held = []
                cut = true
            }
        }
        failure = fitted.withUnsafeBytes { output.write(raw: $0) }
    }
}
