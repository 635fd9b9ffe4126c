/// A protocol or field as `tshark -T pdml` prints it: its attributes (name, showname, show, value,
/// pos, size) and what it contains. PDML is the one tshark output that gives every field's position
/// and size, so a field-by-field comparison reads it.
struct PDMLNode {
    var element: String
    var attributes: [String: String]
    var children: [PDMLNode] = []

    var name: String { attributes["name"] ?? "" }
    var show: String { attributes["show"] ?? "" }
    var showname: String { attributes["showname"] ?? "" }
    var value: String? { attributes["value"] }
    /// Where the field starts in its data source: the packet, a reassembled PDU, or an inflated body.
    var position: Int { attributes["pos"].flatMap { Int($0) } ?? 0 }
    var size: Int { attributes["size"].flatMap { Int($0) } ?? 0 }

    /// The packets of a PDML document, each as its top-level protocols in order. tshark writes one
    /// element per line, which is all this reads.
    static func packets(_ document: String) -> [[PDMLNode]] {
        var packets: [[PDMLNode]] = []
        var open: [PDMLNode] = []
        var packet: [PDMLNode] = []
        for rawLine in document.split(separator: "\n") {
            let line = rawLine.drop { $0 == " " }
            if line.hasPrefix("<packet>") {
                packet = []
            } else if line.hasPrefix("</packet>") {
                packets.append(packet)
            } else if line.hasPrefix("</proto>") || line.hasPrefix("</field>") {
                guard let closed = open.popLast() else { continue }
                add(closed, to: &open, or: &packet)
            } else if line.hasPrefix("<proto ") || line.hasPrefix("<field ") {
                let element = String(line.dropFirst().prefix { $0 != " " })
                let node = PDMLNode(element: element, attributes: attributes(of: line))
                if line.hasSuffix("/>") { add(node, to: &open, or: &packet) } else { open.append(node) }
            }
        }
        return packets
    }

    private static func add(_ node: PDMLNode, to open: inout [PDMLNode], or packet: inout [PDMLNode]) {
        if open.isEmpty { packet.append(node) } else { open[open.count - 1].children.append(node) }
    }

    /// The `key="value"` pairs of an element's line, with XML's character references resolved.
    private static func attributes(of line: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = line.drop { $0 != " " }
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].trimmingPrefix(" ")
            let afterQuote = rest.index(equals, offsetBy: 2)
            guard afterQuote <= rest.endIndex, let close = rest[afterQuote...].firstIndex(of: "\"") else { break }
            attributes[String(key)] = unescaped(rest[afterQuote..<close])
            rest = rest[rest.index(after: close)...]
        }
        return attributes
    }

    private static func unescaped(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&"), let semicolon = rest[amp...].firstIndex(of: ";") {
            out += rest[..<amp]
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "quot": out += "\""
            case "apos": out += "'"
            case "lt": out += "<"
            case "gt": out += ">"
            case "amp": out += "&"
            default:
                let scalar = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst(), radix: 10)
                out += scalar.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "&\(entity);"
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}
