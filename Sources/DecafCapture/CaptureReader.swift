/// Reads packets from a pcap or pcapng file fed to it in chunks of any size, so a capture of any
/// length streams through in bounded memory. Every length in the file is checked before it is used;
/// a damaged or cut-off file ends in a `CaptureError` naming the file offset, after every packet
/// before the damage has been returned.
public struct CaptureReader {
    /// The largest record or block accepted (real snapshot lengths are at most 256 KiB).
    public static let maximumRecordLength = 16 << 20

    public private(set) var format: CaptureFormat?
    /// Packets returned so far.
    public private(set) var packetCount = 0

    private var buffer: [UInt8] = []
    private var position = 0
    /// File offset of `buffer[0]`.
    private var bufferOffset = 0
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

    public init() {}

    /// File offset of the next byte not yet read into a packet or header.
    public var fileOffset: Int { bufferOffset + position }

    /// Adds the next bytes of the file.
    public mutating func append(_ chunk: ArraySlice<UInt8>) {
        if position > 0 && position >= buffer.count / 2 {
            buffer.removeFirst(position)
            bufferOffset += position
            position = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// The next packet, nil when more bytes are needed, or why the file cannot be read on.
    public mutating func nextPacket() throws(CaptureError) -> CapturedPacket? {
        if let failure { throw failure }
        do {
            return try readPacket()
        } catch {
            failure = error
            throw error
        }
    }

    /// Declares the end of the file: throws if it ended inside a header, record or block.
    public mutating func finish() throws(CaptureError) {
        if let failure { throw failure }
        let left = buffer.count - position
        if format == nil {
            throw CaptureError(fileOffset: 0, "not a pcap or pcapng file: the file is shorter than a magic number")
        }
        guard left > 0 else { return }
        let error = CaptureError(fileOffset: fileOffset, "the file ends inside a \(format == .pcap ? "packet record" : "block"): \(left) byte(s) of it present")
        failure = error
        throw error
    }

    private var available: ArraySlice<UInt8> { buffer[position...] }

    private mutating func readPacket() throws(CaptureError) -> CapturedPacket? {
        while true {
            if format == nil {
                guard available.count >= 4 else { return nil }
                guard let detected = CaptureFormat.detect(available) else {
                    throw CaptureError(fileOffset: 0, "not a pcap or pcapng file: unknown magic \(available.prefix(4).map { String($0, radix: 16) })")
                }
                format = detected
            }
            switch format {
            case .pcap:
                return try readPcapRecord()
            case .pcapng:
                guard let result = try readPcapngBlock() else { return nil }
                if let packet = result { return packet }
            case nil:
                return nil
            }
        }
    }

    // MARK: - pcap

    private mutating func readPcapRecord() throws(CaptureError) -> CapturedPacket? {
        if pcap == nil {
            guard available.count >= 24 else { return nil }
            guard let magic = PcapMagic(available) else { throw CaptureError(fileOffset: fileOffset, "bad pcap magic") }
            let linkType = LinkType(rawValue: magic.byteOrder.uint32(available, at: 20) & 0x0FFF_FFFF)
            pcap = PcapState(magic: magic, linkType: linkType)
            position += 24
        }
        guard let pcap, available.count >= 16 else { return nil }
        let order = pcap.magic.byteOrder
        let record = available
        let capturedLength = Int(order.uint32(record, at: 8))
        let originalLength = Int(order.uint32(record, at: 12))
        guard capturedLength <= Self.maximumRecordLength else {
            throw CaptureError(fileOffset: fileOffset, "packet record of \(capturedLength) bytes is longer than the \(Self.maximumRecordLength)-byte limit")
        }
        guard record.count >= 16 + capturedLength else { return nil }
        let time = CaptureTime(seconds: UInt64(order.uint32(record, at: 0)), ticks: UInt64(order.uint32(record, at: 4)),
                               decimalExponent: pcap.magic.decimalExponent)
        return emit(bytes: record.bytes(at: 16, count: capturedLength), time: time, linkType: pcap.linkType,
                    originalLength: max(originalLength, capturedLength), recordLength: 16 + capturedLength)
    }

    private mutating func emit(bytes: ArraySlice<UInt8>, time: CaptureTime, linkType: LinkType, originalLength: Int, recordLength: Int) -> CapturedPacket {
        packetCount += 1
        let packet = CapturedPacket(number: packetCount, time: time, linkType: linkType, bytes: Array(bytes),
                                    originalLength: originalLength)
        position += recordLength
        return packet
    }

    // MARK: - pcapng

    /// nil: more bytes needed; .some(nil): a block that holds no packet was read.
    private mutating func readPcapngBlock() throws(CaptureError) -> CapturedPacket?? {
        guard available.count >= 12 else { return nil }
        let block = available
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
        guard block.count >= length else { return nil }
        guard Int(order.uint32(block, at: length - 4)) == length else {
            throw CaptureError(fileOffset: fileOffset + length - 4, "block of type \(type): the trailing length does not match the leading \(length)")
        }
        let body = block.bytes(at: 8, count: length - 12)
        switch type {
        case PcapngBlock.interfaceDescription:
            try describeInterface(body, order: order)
        case PcapngBlock.enhancedPacket:
            return .some(try enhancedPacket(body, order: order, blockLength: length))
        case PcapngBlock.simplePacket:
            return .some(try simplePacket(body, order: order, blockLength: length))
        default:
            break
        }
        position += length
        return .some(nil)
    }

    private mutating func describeInterface(_ body: ArraySlice<UInt8>, order: ByteOrder) throws(CaptureError) {
        guard body.count >= 8 else { throw CaptureError(fileOffset: fileOffset, "interface description block too short") }
        var interface = PcapngInterface(linkType: LinkType(rawValue: UInt32(order.uint16(body, at: 0))),
                                        snapLength: Int(order.uint32(body, at: 4)), tsresol: 6)
        var offset = 8
        while offset + 4 <= body.count {
            let code = order.uint16(body, at: offset)
            let length = Int(order.uint16(body, at: offset + 2))
            guard code != PcapngBlock.endOfOptions, offset + 4 + length <= body.count else { break }
            if code == PcapngBlock.timestampResolutionOption, length >= 1 { interface.tsresol = body[body.startIndex + offset + 4] }
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

    private mutating func enhancedPacket(_ body: ArraySlice<UInt8>, order: ByteOrder, blockLength: Int) throws(CaptureError) -> CapturedPacket {
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
        return emit(bytes: body.bytes(at: 20, count: capturedLength), time: time, linkType: interface.linkType,
                    originalLength: max(Int(order.uint32(body, at: 16)), capturedLength), recordLength: blockLength)
    }

    private mutating func simplePacket(_ body: ArraySlice<UInt8>, order: ByteOrder, blockLength: Int) throws(CaptureError) -> CapturedPacket {
        guard body.count >= 4 else { throw CaptureError(fileOffset: fileOffset, "simple packet block too short") }
        let interface = try interface(0)
        let originalLength = Int(order.uint32(body, at: 0))
        var capturedLength = min(originalLength, body.count - 4)
        if interface.snapLength > 0 { capturedLength = min(capturedLength, interface.snapLength) }
        return emit(bytes: body.bytes(at: 4, count: capturedLength), time: CaptureTime(seconds: 0, nanoseconds: 0),
                    linkType: interface.linkType, originalLength: originalLength, recordLength: blockLength)
    }
}
