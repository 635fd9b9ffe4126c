import DecafSession
import DecafWire

/// libFuzzer entry: the first two bytes are a mask of the peer's faults, the rest is what a client
/// sends. Every frame goes through the peer's session and every error through its error path: the
/// session must never crash, must answer a fatal error with a close unless a fault keeps the
/// connection open, and must never answer anything but ACK, CONTROL and READ_RECEIPT frames.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPeerSession(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 2 else { return 0 }
    let mask = UInt16(input[0]) | UInt16(input[1]) << 8
    var configuration = PeerConfiguration()
    configuration.faults = PeerFault.all.indices.filter { mask & (1 << UInt16($0)) != 0 }.map { PeerFault.all[$0] }
    configuration.replayMemoryLimit = 64
    configuration.bodyLimit = 1 << 16
    var session = PeerSession(configuration: configuration)
    var decoder = FrameDecoder(options: configuration.decodeOptions)
    decoder.append(Array(input.dropFirst(2)))
    var now: UInt32 = 1_700_000_000
    while true {
        do {
            guard let frame = try decoder.nextFrame() else { break }
            now &+= UInt32(frame.header.sequence.counter & 3)
            for action in session.receive(frame, now: now) {
                if case let .send(outgoing, _) = action {
                    precondition([.ack, .control, .readReceipt].contains(outgoing.header.messageType), "the peer sent \(outgoing.header.messageType)")
                }
            }
        } catch {
            let actions = session.fail(error, now: now)
            let closes = actions.contains { if case .close = $0 { true } else { false } }
            precondition(closes || configuration.has(.keepOpenOnBadMagic) || configuration.has(.keepOpenOnError), "a fatal error left the connection open")
            break
        }
    }
    return 0
}
