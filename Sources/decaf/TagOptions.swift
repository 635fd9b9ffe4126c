import ArgumentParser
import DecafWire

/// The application's own TLV tags, named on the command line so that every output shows them by
/// name (and, for text tags, their text): `--tag 0x2001=STICKER:text`.
struct TagOptions: ParsableArguments {
    @Option(name: .customLong("tag"),
            help: ArgumentHelp("Name a TLV tag of your own, as TAG=NAME or TAG=NAME:text (a UTF-8 value); repeatable. The brief's tags keep their names.",
                               valueName: "tag=name"),
            transform: Self.definition)
    var tags: [TLVTagDefinition] = []

    func validate() throws {
        _ = try registry
    }

    /// The brief's tags and the ones given.
    var registry: FieldRegistry {
        get throws {
            var registry = FieldRegistry.brief
            for definition in tags {
                do {
                    registry = try registry.registering(definition)
                } catch {
                    throw ValidationError("--tag \(Hex.format(definition.tag.rawValue, width: 4))=\(definition.name): \(error)")
                }
            }
            return registry
        }
    }

    /// `0x2001=STICKER`, `8193=STICKER:bytes`, `0x2001=CAPTION:text`.
    @Sendable static func definition(_ text: String) throws(ArgumentProblem) -> TLVTagDefinition {
        let usage = "give TAG=NAME or TAG=NAME:text, such as 0x2001=STICKER"
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let tag = try? IntegerArgument.parse(String(parts[0]), in: UInt16.min...UInt16.max, hex: true) else {
            throw ArgumentProblem("not a tag number from 0 to 0xFFFF before '='; \(usage)")
        }
        let nameAndLayout = parts[1].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let layout: TLVValueLayout
        switch nameAndLayout.count == 2 ? nameAndLayout[1].lowercased() : "bytes" {
        case "bytes": layout = .bytes
        case "text": layout = .utf8
        default: throw ArgumentProblem("the value's layout is text or bytes; \(usage)")
        }
        return TLVTagDefinition(TLVTag(tag), String(nameAndLayout[0]), layout)
    }
}
