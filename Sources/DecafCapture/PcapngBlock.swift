/// The numbers pcapng gives its blocks and options, for the reader and the writer alike.
enum PcapngBlock {
    /// A section header's block type: the same bytes in either byte order, so it also marks a pcapng file.
    static let sectionHeader: UInt32 = 0x0A0D_0D0A
    static let interfaceDescription: UInt32 = 1
    static let simplePacket: UInt32 = 3
    static let enhancedPacket: UInt32 = 6
    /// Written in the section's byte order after the section header's length, so a reader learns it.
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    /// The interface option `if_tsresol`: the resolution of packet timestamps.
    static let timestampResolutionOption: UInt16 = 9
    /// The option that ends an option list.
    static let endOfOptions: UInt16 = 0
}
