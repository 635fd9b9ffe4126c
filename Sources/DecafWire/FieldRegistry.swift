/// The names of the frame model: the TLV tags every output names, with their value layouts (the
/// header's fields are `FrameHeader.Field`). `brief` holds the brief's tags; an application's own
/// tags are registered on a copy, and every output that is given the copy (the summary, the tree,
/// the hexdump, JSON, the Wireshark plugin) names them and reads their values with their layout.
public struct FieldRegistry: Hashable, Sendable {
    /// The tags and their index, held in one object: a registry passed along with every frame of
    /// a capture costs one reference count, not one per array.
    /// Immutable once made, so it is shared between threads as it is; `names` is memory of its
    /// own (freed with the table), so an output copies a name's bytes without making a `String`.
    @usableFromInline final class Table: @unchecked Sendable {
        /// Every tag the registry names, in tag order.
        @usableFromInline let tags: [TLVTagDefinition]
        /// For each of the 65,536 tags, its index in `tags` plus one, or 0: a name is one load
        /// away, which the summary of millions of frames needs.
        @usableFromInline let slots: [UInt8]
        /// Every name's UTF-8 bytes, one after another, in the order of `tags`.
        @usableFromInline let names: UnsafeMutableRawBufferPointer
        /// Where each tag's name lies in `names`, in the order of `tags`.
        @usableFromInline let nameRanges: [Range<Int>]

        init(tags: [TLVTagDefinition]) {
            self.tags = tags.sorted { $0.tag < $1.tag }
            var slots = Array(repeating: UInt8(0), count: Int(UInt16.max) + 1)
            var text: [UInt8] = []
            var nameRanges: [Range<Int>] = []
            for (index, definition) in self.tags.enumerated() {
                slots[Int(definition.tag.rawValue)] = UInt8(index + 1)
                nameRanges.append(text.count..<(text.count + definition.name.utf8.count))
                text += definition.name.utf8
            }
            self.slots = slots
            self.nameRanges = nameRanges
            names = .allocate(byteCount: max(1, text.count), alignment: 1)
            names.copyBytes(from: text)
        }

        deinit { names.deallocate() }

        /// The UTF-8 bytes of the name in `slot` (1-based); valid while the table lives.
        @inlinable
        func name(inSlot slot: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: names[nameRanges[slot - 1]])
        }
    }

    @usableFromInline let table: Table

    /// Every tag the registry names, in tag order.
    public var tags: [TLVTagDefinition] { table.tags }

    /// Why a tag cannot be registered.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// The tag already has a name: this definition.
        case alreadyNamed(TLVTagDefinition)
        /// Another tag has the name: this definition.
        case nameTaken(TLVTagDefinition)
        /// The layout is one only the brief's own tags have.
        case layoutNotRegistrable(TLVValueLayout)
        /// The name is empty or not letters, digits and underscores.
        case badName(String)
        /// The registry holds as many tags as it can.
        case full

        /// The registry's tags by name, for a person.
        public var description: String {
            switch self {
            case let .alreadyNamed(existing): "tag \(Hex.format(existing.tag.rawValue, width: 4)) is already \(existing.name)"
            case let .nameTaken(existing): "\(existing.name) already names tag \(Hex.format(existing.tag.rawValue, width: 4))"
            case let .layoutNotRegistrable(layout): "a tag of one's own holds bytes or text, not \(layout.rawValue)"
            case let .badName(name): "a tag's name is 1 to 32 capital letters, digits and underscores, starting with a letter, as the brief's are; not \(name.debugDescription)"
            case .full: "at most \(FieldRegistry.capacity) tags can be named"
            }
        }
    }

    static let capacity = Int(UInt8.max)

    /// The brief's tags (TLV-4).
    public static let brief = FieldRegistry(unchecked: [
        TLVTagDefinition(.versionRequest, "VERSION_REQUEST", .versionOffer),
        TLVTagDefinition(.versionResponse, "VERSION_RESPONSE", .versionOffer),
        TLVTagDefinition(.readReceipt, "READ_RECEIPT", .sequence),
        TLVTagDefinition(.groupMessage, "GROUP_MESSAGE"),
        TLVTagDefinition(.fileTransfer, "FILE_TRANSFER"),
        TLVTagDefinition(.userStatus, "USER_STATUS"),
        TLVTagDefinition(.typingIndicator, "TYPING_INDICATOR"),
        TLVTagDefinition(.error, "ERROR", .errorReport),
        TLVTagDefinition(.text, "TEXT", .utf8),
        TLVTagDefinition(.image, "IMAGE"),
        TLVTagDefinition(.audio, "AUDIO"),
        TLVTagDefinition(.video, "VIDEO"),
        TLVTagDefinition(.file, "FILE"),
        TLVTagDefinition(.location, "LOCATION"),
        TLVTagDefinition(.custom, "CUSTOM"),
        TLVTagDefinition(.container, "CONTAINER", .container),
    ])

    private init(unchecked tags: [TLVTagDefinition]) {
        table = Table(tags: tags)
    }

    /// This registry with `definition` added. A tag the registry names keeps its name, and a tag of
    /// one's own holds bytes or UTF-8 text: the other layouts are the brief's own tags'.
    public func registering(_ definition: TLVTagDefinition) throws(Refusal) -> FieldRegistry {
        if let existing = self.definition(of: definition.tag) { throw .alreadyNamed(existing) }
        guard definition.layout == .bytes || definition.layout == .utf8 else { throw .layoutNotRegistrable(definition.layout) }
        guard Self.isWellFormed(name: definition.name) else { throw .badName(definition.name) }
        if let existing = tags.first(where: { $0.name == definition.name }) { throw .nameTaken(existing) }
        guard tags.count < Self.capacity else { throw .full }
        return FieldRegistry(unchecked: tags + [definition])
    }

    /// A name as the brief writes them (`READ_RECEIPT`), which every output can show unquoted and
    /// unescaped: JSON, Lua, a column.
    static func isWellFormed(name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (1...32).contains(bytes.count), (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return false }
        return bytes.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
    }

    /// The definition of `tag`, or nil for a tag the registry does not know (its value is raw bytes, TLV-4).
    @inlinable
    public func definition(of tag: TLVTag) -> TLVTagDefinition? {
        let slot = slot(of: tag)
        return slot == 0 ? nil : table.tags[slot - 1]
    }

    /// The tag's place in the table plus one, or 0 for a tag the registry does not name.
    @inlinable
    func slot(of tag: TLVTag) -> Int { Int(table.slots[Int(tag.rawValue)]) }

    /// The UTF-8 bytes of the tag's name, nil when the registry does not name it: what an output
    /// that writes bytes copies, without making a `String`. Valid as long as the registry is.
    @inlinable
    public func nameBytes(of tag: TLVTag) -> UnsafeRawBufferPointer? {
        let slot = slot(of: tag)
        return slot == 0 ? nil : table.name(inSlot: slot)
    }

    /// The tag's name, or nil when the registry does not name it.
    @inlinable
    public func name(of tag: TLVTag) -> String? { definition(of: tag)?.name }

    /// The tag's name, or its four hex digits when it has none.
    @inlinable
    public func label(of tag: TLVTag) -> String { name(of: tag) ?? Hex.format(tag.rawValue, width: 4) }

    /// How the tag's value is laid out: bytes for a tag the registry does not name.
    @inlinable
    public func layout(of tag: TLVTag) -> TLVValueLayout { definition(of: tag)?.layout ?? .bytes }

    /// `0x1001 TEXT`, or just the hex for a tag without a name.
    public static func describe(_ tag: TLVTag, name: String?) -> String {
        let hex = Hex.format(tag.rawValue, width: 4)
        return name.map { "\(hex) \($0)" } ?? hex
    }

    /// Two registries are equal when they define the same tags alike.
    public static func == (lhs: FieldRegistry, rhs: FieldRegistry) -> Bool { lhs.tags == rhs.tags }
    /// Hashes the tags the registry defines.
    public func hash(into hasher: inout Hasher) { hasher.combine(tags) }
}
