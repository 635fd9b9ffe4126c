import ArgumentParser
import DecafVectors
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

/// A `TAG=VALUE` TLV field (see `TLVFieldSpec`): TAG a name (`TEXT`) or a number (`0x1001`);
/// VALUE text, `0x`/`hex:` bytes, `u16:`/`u32:` numbers, or a JSON array of nested fields.
struct TLVArgument: ExpressibleByArgument {
    var field: TLVField

    init?(argument: String) {
        guard let field = try? TLVFieldSpec.field(argument) else { return nil }
        self.field = field
    }
}

/// A named protocol value on the command line: its name (`DATA`, case-insensitive) or its number
/// (decimal or `0x` hex).
extension NamedWireValue {
    public init?(argument: String) {
        let text = argument.lowercased()
        let number = text.hasPrefix("0x") ? RawValue(text.dropFirst(2), radix: 16) : RawValue(text)
        if let number {
            self.init(rawValue: number)
            return
        }
        guard let match = (0...255).lazy.map({ Self(rawValue: RawValue($0)) }).first(where: { $0.name?.lowercased() == text }) else {
            return nil
        }
        self = match
    }
}

extension MessageType: ExpressibleByArgument {}
extension SequenceCategory: ExpressibleByArgument {}
extension EncryptType: ExpressibleByArgument {}
extension CompressType: ExpressibleByArgument {}

/// A u16 or u32 on the command line, in decimal or `0x` hex.
struct WireNumber<Value: FixedWidthInteger & Sendable>: ExpressibleByArgument, Sendable {
    var value: Value

    init?(argument: String) {
        let text = argument.lowercased()
        guard let value = text.hasPrefix("0x") ? Value(text.dropFirst(2), radix: 16) : Value(text) else { return nil }
        self.value = value
    }
}
