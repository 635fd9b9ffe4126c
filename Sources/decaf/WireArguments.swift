import ArgumentParser
import DecafWire

/// `1.0`: a protocol version on the command line.
extension ProtocolVersion: ExpressibleByArgument {
    public init?(argument: String) {
        let parts = argument.split(separator: ".")
        guard parts.count == 2, let major = UInt8(parts[0]), let minor = UInt8(parts[1]) else { return nil }
        self.init(major: major, minor: minor)
    }
}

/// Feature flags on the command line: `all`, `none`, a number (`0x1F`), or names joined by commas
/// (`BASIC,READ_RECEIPT`).
extension FeatureFlags: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "all": self = .known
        case "none": self = []
        default:
            if let value = argument.lowercased().hasPrefix("0x") ? UInt16(argument.dropFirst(2), radix: 16) : UInt16(argument) {
                self.init(rawValue: value)
                return
            }
            var flags: FeatureFlags = []
            for name in argument.split(separator: ",") {
                guard let flag = FeatureFlags.named.first(where: { $0.name == name.uppercased() })?.flag else { return nil }
                flags.insert(flag)
            }
            self = flags
        }
    }
}

/// A `TAG=VALUE` TLV field: TAG a name (`TEXT`) or a number (`0x1001`); VALUE text, or hex after
/// `0x`.
struct TLVArgument: ExpressibleByArgument {
    var field: TLVField

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        let tagText = argument[..<equals]
        let valueText = argument[argument.index(after: equals)...]
        let tag: TLVTag
        if let known = TLVTag.known.first(where: { $0.name == tagText.uppercased() }) {
            tag = known
        } else if tagText.lowercased().hasPrefix("0x"), let value = UInt16(tagText.dropFirst(2), radix: 16) {
            tag = TLVTag(value)
        } else if let value = UInt16(tagText) {
            tag = TLVTag(value)
        } else {
            return nil
        }
        if valueText.lowercased().hasPrefix("0x") {
            guard let bytes = Hex.bytes(valueText) else { return nil }
            field = TLVField(tag: tag, bytes: bytes)
        } else {
            field = TLVField(tag: tag, text: String(valueText))
        }
    }
}
