import DecafPeer
import DecafSession
import DecafVectors
import DecafWire

/// The protocol's values on the command line, each refused with the reason and what to give.
enum WireArgument {
    /// `1.0`: a protocol version, major and minor.
    @Sendable static func version(_ text: String) throws(ArgumentProblem) -> ProtocolVersion {
        guard let version = ProtocolVersion(dotted: text) else {
            throw ArgumentProblem("not a version; give MAJOR.MINOR, each from 0 to 255, such as 1.0")
        }
        return version
    }

    /// Feature flags: `all`, `none`, a 16-bit number (`0x1F`), or names joined by commas
    /// (`BASIC,READ_RECEIPT`).
    @Sendable static func features(_ text: String) throws(ArgumentProblem) -> FeatureFlags {
        let usage = "give all, none, a number from 0 to 0xFFFF, or names joined by commas from "
            + FeatureFlags.named.map(\.name).joined(separator: ", ")
        switch text.lowercased() {
        case "all": return .known
        case "none": return []
        default: break
        }
        if let first = text.first, first.isNumber {
            guard let value = try? IntegerArgument.parse(text, in: UInt16.min...UInt16.max, hex: true) else {
                throw ArgumentProblem("not a 16-bit number; \(usage)")
            }
            return FeatureFlags(rawValue: value)
        }
        var flags: FeatureFlags = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let flag = FeatureFlags.named.first(where: { $0.name == name.uppercased() })?.flag else {
                throw ArgumentProblem(name.isEmpty ? "a feature name is empty; \(usage)" : "unknown feature '\(name.prefix(40))'; \(usage)")
            }
            flags.insert(flag)
        }
        return flags
    }

    /// A named protocol value (`DATA`, case-insensitive) or its number (decimal or `0x` hex).
    static func named<Value: NamedWireValue & Sendable>(_ what: String) -> @Sendable (String) throws(ArgumentProblem) -> Value {
        { text throws(ArgumentProblem) in
            let values = (0...255).map { Value(rawValue: Value.RawValue($0)) }.filter(\.isKnown)
            if let match = values.first(where: { $0.name?.lowercased() == text.lowercased() }) { return match }
            guard let number = try? IntegerArgument.parse(text, in: Value.RawValue.min...Value.RawValue.max, hex: true) else {
                throw ArgumentProblem("unknown \(what); give \(values.map(\.description).joined(separator: ", ")) or a number from 0 to \(Value.RawValue.max)")
            }
            return Value(rawValue: number)
        }
    }

    /// A sequence number as frames print it, `CONTROL/1` or `2/1` (category and counter), or the
    /// whole u32 (`0x02000001`).
    @Sendable static func sequence(_ text: String) throws(ArgumentProblem) -> SequenceNumber {
        let usage = "give CATEGORY/COUNTER such as CONTROL/1, or the whole number such as 0x02000001"
        guard let slash = text.firstIndex(of: "/") else {
            guard let value = try? IntegerArgument.parse(text, in: UInt32.min...UInt32.max, hex: true) else {
                throw ArgumentProblem("not a sequence number; \(usage)")
            }
            return SequenceNumber(rawValue: value)
        }
        let category: SequenceCategory
        do {
            category = try named("sequence category")(String(text[..<slash]))
        } catch {
            throw ArgumentProblem("before the /: \(error)")
        }
        guard let counter = try? IntegerArgument.parse(String(text[text.index(after: slash)...]), in: 0...SequenceNumber.maxCounter, hex: true) else {
            throw ArgumentProblem("the counter after the / is not a number from 0 to \(SequenceNumber.maxCounter); \(usage)")
        }
        return SequenceNumber(category: category, counter: counter)
    }

    /// A session UUID, from which session_id is derived (SESSION-1).
    @Sendable static func sessionUUID(_ text: String) throws(ArgumentProblem) -> SessionID {
        guard let session = SessionID(uuid: text) else {
            throw ArgumentProblem("not a UUID; give 32 hex digits, dashes allowed, such as 12345678-9abc-def0-1234-56789abcdef0")
        }
        return session
    }

    /// A `TAG=VALUE` TLV field (see `TLVFieldSpec`).
    @Sendable static func field(_ text: String) throws(ArgumentProblem) -> TLVField {
        do {
            return try TLVFieldSpec.field(text)
        } catch {
            throw ArgumentProblem("\(error.description); give TAG=VALUE, such as TEXT=hello, IMAGE=0x89504e47 or 0x0020=u16:7")
        }
    }

    /// A fault of the reference peer: its name, or `slow-ack=DELAY`.
    @Sendable static func fault(_ text: String) throws(ArgumentProblem) -> PeerFault {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        if name == "slow-ack", parts.count == 2 {
            return .slowAck(delay: try DurationArgument.nonNegative(String(parts[1])))
        }
        guard parts.count == 1, let fault = PeerFault(name: name) else {
            throw ArgumentProblem("unknown fault '\(text.prefix(40))'; give one of \(PeerFault.named.map(\.name).joined(separator: ", ")) (slow-ack=DELAY sets the delay); --list-faults explains them")
        }
        return fault
    }
}
