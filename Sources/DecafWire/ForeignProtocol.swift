/// What bytes that are not Decaf frames look like, so a tool pointed at the wrong port can say what
/// answered instead ("an HTTP response", "a TLS record", "an SSH banner") rather than only
/// BAD_MAGIC. Recognised from the first bytes a peer sent; nil while they may still be the start
/// of a frame.
public enum ForeignProtocol: Hashable, Sendable, CustomStringConvertible {
    /// An HTTP message: its first line, such as `HTTP/1.0 501 Unsupported method ('GET')`.
    case http(String)
    /// An HTML page without an HTTP status line (an HTTP/0.9 answer): its first line.
    case html(String)
    /// A TLS record (a ServerHello or an alert): the server expects TLS.
    case tls
    /// An SSH server's banner, such as `SSH-2.0-OpenSSH_9.2p1`.
    case ssh(String)
    /// Printable text: its first line, such as an SMTP or Redis greeting.
    case text(String)
    /// Anything else: the first bytes.
    case binary([UInt8])

    /// How many bytes `description` quotes at most.
    static let quoted = 80

    /// What `bytes`, the first a peer sent, are; nil when they are empty or start like a frame
    /// (the magic, or the start of it).
    public init?(recognising bytes: some Collection<UInt8>) {
        let start = Array(bytes.prefix(256))
        guard !start.isEmpty, !FrameHeader.magicBytes.starts(with: start.prefix(FrameHeader.magicBytes.count)) else { return nil }
        let line = Self.firstLine(of: start)
        if start.starts(with: Array("HTTP/".utf8)) || Self.isRequestLine(line) {
            self = .http(line)
        } else if start.starts(with: Array("SSH-".utf8)) {
            self = .ssh(line)
        } else if start.count >= 3, [0x15, 0x16].contains(start[0]), start[1] == 0x03, start[2] <= 0x04 {
            self = .tls
        } else if Self.isText(start.prefix { $0 != 0x0A && $0 != 0x0D }) {
            // Text is told by its first line: what follows may quote the bytes it was sent.
            self = line.lowercased().hasPrefix("<!doctype html") || line.lowercased().hasPrefix("<html") ? .html(line) : .text(line)
        } else {
            self = .binary(Array(start.prefix(16)))
        }
    }

    /// The protocol's name, as a refusal of input says it: `HTTP`, `TLS`.
    public var description: String {
        switch self {
        case let .http(line): "an HTTP message (\(Self.quote(line)))"
        case let .html(line): "an HTML page (\(Self.quote(line))), as an HTTP server answers what it cannot parse"
        case .tls: "a TLS record (the server expects TLS)"
        case let .ssh(banner): "an SSH banner (\(Self.quote(banner)))"
        case let .text(line): "text (\(Self.quote(line)))"
        case let .binary(bytes): "bytes that are not a Decaf frame (\(Hex.spaced(bytes)))"
        }
    }

    private static func quote(_ text: String) -> String {
        "'" + (text.count > quoted ? text.prefix(quoted) + "…" : Substring(text)) + "'"
    }

    /// Whether `bytes` are printable ASCII (tabs included), and there are some.
    private static func isText(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 }
    }

    /// The bytes up to the first line break, as text.
    private static func firstLine(of bytes: [UInt8]) -> String {
        let end = bytes.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Whether `line` is an HTTP request line: a method in capitals, a target, then HTTP/.
    private static func isRequestLine(_ line: String) -> Bool {
        let words = line.split(separator: " ")
        return words.count == 3 && words[0].allSatisfy { $0.isUppercase } && words[2].hasPrefix("HTTP/")
    }
}
