/// Reads packets from a pcap or pcapng file fed to it in chunks of any size, so a capture of any
/// length streams through in bounded memory. Packets are handed out in place, in the chunk they
/// were read in: only a record that straddles two chunks is copied, once. Every length in the file
/// is checked before it is used; a damaged or cut-off file ends in a `CaptureError` naming the file
/// offset, after every packet before the damage has been handed out.
public struct CaptureReader {
    /// The largest record or block accepted (real snapshot lengths are at most 256 KiB).
    public static let maximumRecordLength = 16 << 20

    public private(set) var format: CaptureFormat?
    /// Packets handed out so far.
    public private(set) var packetCount = 0
    /// File offset of the next byte not yet read into a packet or header.
    public private(set) var fileOffset = 0

    /// The start of a header, record or block that the last chunk ended inside.
    private var carry: [UInt8] = []
    private var pcap: PcapState?
    private var section: PcapngSection?
    private var failure: CaptureError?

    private struct PcapState {
        var magic: PcapMagic
        var linkType: LinkType
    }

    /// One pcapng section: its byte order and the interfaces described so far.
    private struct PcapngSection {
        var byteOrder: ByteOrder
        var interfaces: [PcapngInterface] = []
    }

    private struct PcapngInterface {
        var linkType: LinkType
        var snapLength: Int
        var tsresol: UInt8
    }

    /// What the bytes at a unit boundary (the file header, a record or a block) hold.
    private enum Unit {
        /// The unit needs this many bytes in all, more than there are.
        case needs(Int)
        /// A unit of this many bytes was read, and the packet it carries, if any.
        case read(Int, CapturedPacket?)
    }

    public init() {}

    /// Reads the next chunk of the file and hands every packet it completes to `handle`, in place:
    /// a packet's bytes are valid only during the call. Throws at the first damage, after handing
    /// out every packet before it, and on every later call.
    public mutating func read(_ chunk: UnsafeRawBufferPointer, _ handle: (CapturedPacket) -> Void) throws(CaptureError) {
        if let failure { throw failure }
        do {
            try readUnits(chunk, handle)
        } catch {
            failure = error
            throw error
        }
    }

    /// Declares the end of the file: throws if it ended inside a header, record or block.
    public mutating func finish() throws(CaptureError) {
        if let failure { throw failure }
        if format == nil {
            let error = CaptureError(fileOffset: 0, "not a pcap or pcapng file: the file is shorter than a magic number")
            failure = error
            throw error
        }
        guard !carry.isEmpty else { return }
        let error = CaptureError(fileOffset: fileOffset, "the file ends inside a \(format == .pcap ? "packet record" : "block"): \(carry.count) byte(s) of it present")
        failure = error
        throw error
    }

    /// Ends this file and reads what follows as the next part of the same capture (tcpdump -C or
    /// -G writes one in several files): a file header again, and packets numbered on from this
    /// file's. Throws as `finish` does when this file ended badly.
    public mutating func startNextFile() throws(CaptureError) {
        try finish()
        (format, fileOffset, pcap, section) = (nil, 0, nil, nil)
    }

    private mutating func readUnits(_ chunk: UnsafeRawBufferPointer, _ handle: (CapturedPacket) -> Void) throws(CaptureError) {
        var offset = 0
        // A unit begun in an earlier chunk takes just the bytes it lacks, then is read on its own.
        while !carry.isEmpty {
            let carried = carry
            let unit = try carried.withUnsafeBytes { raw in Result { () throws(CaptureError) in try readUnit(raw, handle) } }.get()
            switch unit {
            case let .needs(total):
                let taken = min(total - carry.count, chunk.count - offset)
                carry.append(contentsOf: chunk[offset..<(offset + taken)])
                offset += taken
                if carry.count < total { return }
            case let .read(length, _):
                fileOffset += length
                carry.removeFirst(length)
            }
        }
        while offset < chunk.count {
            switch try readUnit(UnsafeRawBufferPointer(rebasing: chunk[offset...]), handle) {
            case .needs:
                carry = Array(chunk[offset...])
                return
            case let .read(length, _):
                offset += length
                fileOffset += length
            }
        }
    }

    /// Reads the unit at the start of `bytes` (at `fileOffset` in the file), handing out its packet.
    @inline(__always)
    private mutating func readUnit(_ bytes: UnsafeRawBufferPointer, _ handle: (CapturedPacket) -> Void) throws(CaptureError) -> Unit {
        if format == nil {
            guard bytes.count >= 4 else { return .needs(4) }
            guard let detected = CaptureFormat.detect(raw: bytes) else {
                throw CaptureError(fileOffset: 0, "not a pcap or pcapng file: unknown magic \(bytes.prefix(4).map { String($0, radix: 16) })")
            }
            format = detected
        }
        let unit = format == .pcap ? try readPcapUnit(bytes) : try readPcapngBlock(bytes)
        if case let .read(_, packet?) = unit {
            packetCount += 1
            handle(packet)
        }
        return unit
    }

    // MARK: - pcap

    private mutating func readPcapUnit(_ bytes: UnsafeRawBufferPointer) throws(CaptureError) -> Unit {
        guard let pcap else {
            guard bytes.count >= 24 else { return .needs(24) }
            guard let magic = PcapMagic(bytes) else { throw CaptureError(fileOffset: fileOffset, "bad pcap magic") }
            let linkType = LinkType(rawValue: magic.byteOrder.uint32(bytes, at: 20) & 0x0FFF_FFFF)
            self.pcap = PcapState(magic: magic, linkType: linkType)
            return .read(24, nil)
        }
        guard bytes.count >= 16 else { return .needs(16) }
        let order = pcap.magic.byteOrder
        let capturedLength = Int(order.uint32(bytes, at: 8))
        let originalLength = Int(order.uint32(bytes, at: 12))
        guard capturedLength <= Self.maximumRecordLength else {
            throw CaptureError(fileOffset: fileOffset, "packet record of \(capturedLength) bytes is longer than the \(Self.maximumRecordLength)-byte limit")
        }
        guard bytes.count >= 16 + capturedLength else { return .needs(16 + capturedLength) }
        let time = CaptureTime(seconds: UInt64(order.uint32(bytes, at: 0)), ticks: UInt64(order.uint32(bytes, at: 4)),
                               decimalExponent: pcap.magic.decimalExponent)
        let packet = CapturedPacket(number: packetCount + 1, time: time, linkType: pcap.linkType, bytes: bytes.bytes(at: 16, count: capturedLength),
                                    originalLength: max(originalLength, capturedLength))
        return .read(16 + capturedLength, packet)
    }

    // MARK: - pcapng

    private mutating func readPcapngBlock(_ block: UnsafeRawBufferPointer) throws(CaptureError) -> Unit {
        guard block.count >= 12 else { return .needs(12) }
        if block.networkUInt32(at: 0) == PcapngBlock.sectionHeader {
            guard let order = [ByteOrder.bigEndian, .littleEndian].first(where: { $0.uint32(block, at: 8) == PcapngBlock.byteOrderMagic }) else {
                throw CaptureError(fileOffset: fileOffset + 8, "section header block with an unknown byte-order magic")
            }
            section = PcapngSection(byteOrder: order)
        }
        guard let order = section?.byteOrder else {
            throw CaptureError(fileOffset: fileOffset, "pcapng block before any section header block")
        }
        let type = order.uint32(block, at: 0)
        let length = Int(order.uint32(block, at: 4))
        guard length >= 12, length % 4 == 0, length <= Self.maximumRecordLength else {
            throw CaptureError(fileOffset: fileOffset + 4, "block of type \(type) has an impossible total length \(length)")
        }
        guard block.count >= length else { return .needs(length) }
        guard Int(order.uint32(block, at: length - 4)) == length else {
            throw CaptureError(fileOffset: fileOffset + length - 4, "block of type \(type): the trailing length does not match the leading \(length)")
        }
        let body = block.bytes(at: 8, count: length - 12)
        switch type {
        case PcapngBlock.interfaceDescription:
            try describeInterface(body, order: order)
        case PcapngBlock.enhancedPacket:
            return .read(length, try enhancedPacket(body, order: order))
        case PcapngBlock.simplePacket:
            return .read(length, try simplePacket(body, order: order))
        default:
            break
        }
        return .read(length, nil)
    }

    private mutating func describeInterface(_ body: UnsafeRawBufferPointer, order: ByteOrder) throws(CaptureError) {
        guard body.count >= 8 else { throw CaptureError(fileOffset: fileOffset, "interface description block too short") }
        var interface = PcapngInterface(linkType: LinkType(rawValue: UInt32(order.uint16(body, at: 0))),
                                        snapLength: Int(order.uint32(body, at: 4)), tsresol: 6)
        var offset = 8
        while offset + 4 <= body.count {
            let code = order.uint16(body, at: offset)
            let length = Int(order.uint16(body, at: offset + 2))
            guard code != PcapngBlock.endOfOptions, offset + 4 + length <= body.count else { break }
            if code == PcapngBlock.timestampResolutionOption, length >= 1 { interface.tsresol = body[offset + 4] }
            offset += 4 + (length + 3) / 4 * 4
        }
        section?.interfaces.append(interface)
    }

    private func interface(_ id: Int) throws(CaptureError) -> PcapngInterface {
        guard let interfaces = section?.interfaces, id < interfaces.count else {
            throw CaptureError(fileOffset: fileOffset, "packet block names interface \(id), which the section does not describe")
        }
        return interfaces[id]
    }

    private func enhancedPacket(_ body: UnsafeRawBufferPointer, order: ByteOrder) throws(CaptureError) -> CapturedPacket {
        guard body.count >= 20 else { throw CaptureError(fileOffset: fileOffset, "enhanced packet block too short") }
        let interface = try interface(Int(order.uint32(body, at: 0)))
        let ticks = UInt64(order.uint32(body, at: 4)) << 32 | UInt64(order.uint32(body, at: 8))
        let capturedLength = Int(order.uint32(body, at: 12))
        guard 20 + capturedLength <= body.count else {
            throw CaptureError(fileOffset: fileOffset + 20, "enhanced packet block: captured length \(capturedLength) overruns the block")
        }
        let resolution = Int(interface.tsresol & 0x7F)
        let time = interface.tsresol & 0x80 == 0
            ? CaptureTime(ticks: ticks, decimalExponent: resolution)
            : CaptureTime(ticks: ticks, binaryExponent: resolution)
        return CapturedPacket(number: packetCount + 1, time: time, linkType: interface.linkType, bytes: body.bytes(at: 20, count: capturedLength),
                              originalLength: max(Int(order.uint32(body, at: 16)), capturedLength))
    }

    private func simplePacket(_ body: UnsafeRawBufferPointer, order: ByteOrder) throws(CaptureError) -> CapturedPacket {
        guard body.count >= 4 else { throw CaptureError(fileOffset: fileOffset, "simple packet block too short") }
        let interface = try interface(0)
        let originalLength = Int(order.uint32(body, at: 0))
        var capturedLength = min(originalLength, body.count - 4)
        if interface.snapLength > 0 { capturedLength = min(capturedLength, interface.snapLength) }
        return CapturedPacket(number: packetCount + 1, time: CaptureTime(seconds: 0, nanoseconds: 0), linkType: interface.linkType,
                              bytes: body.bytes(at: 4, count: capturedLength), originalLength: originalLength)
    }
}
