import DecafSession
import DecafWire

/// libFuzzer entry: two bytes of faults, a byte of settings, a count and that many operations
/// (connect, the next frame of the rest of the input as the server's, a timer, a message, a lost or
/// refused connection, time passing, the end of the input), then the server's bytes. Whatever the
/// order, the client session must never crash, never ACK what is owed no ACK, never send a frame
/// of an undefined type or while disconnected, resend a message only with its original sequence,
/// timestamp and body, and finish at most once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientSession(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 4 else { return 0 }
    let faultMask = UInt16(input[0]) | UInt16(input[1]) << 8
    var configuration = ClientConfiguration()
    // The faults the conformance cases catch; the rare ones (a planted crash among them) are the fuzzer's to find.
    let faults = ClientFault.all.prefix(16)
    configuration.faults = Set(faults.indices.filter { faultMask & (1 << UInt16($0)) != 0 }.map { faults[$0] })
    configuration.window = Int(input[2] & 0x03) + 1
    configuration.compress = input[2] & 0x04 != 0
    configuration.heartbeat = input[2] & 0x08 != 0 ? .seconds(1) : nil
    configuration.retries = Int(input[2] >> 4 & 0x03)
    configuration.reconnect = input[2] & 0x40 != 0 ? .none : .exponential
    let operations = Array(input.dropFirst(4).prefix(Int(input[3])))
    var decoder = FrameDecoder(options: configuration.effectiveDecodeOptions)
    decoder.append(Array(input.dropFirst(4 + operations.count)))

    var session = ClientSession(configuration: configuration)
    var random = SeededRandom(seed: UInt64(faultMask))
    var now = SessionTime(elapsed: .zero, unixSeconds: 1_700_000_000)
    var connected = false
    var finished = false
    var data: [UInt32: OutgoingFrame] = [:]
    var nextID = 0

    func check(_ actions: [ClientAction], answering: Frame?) {
        for action in actions {
            switch action {
            case .connect:
                connected = false
            case .close:
                continue
            case let .send(frame):
                let type = frame.header.messageType
                precondition(connected, "a frame is sent while disconnected")
                precondition([.ack, .control, .data, .heartbeat, .readReceipt].contains(type), "a frame of type \(type) is sent")
                if type == .ack {
                    let owed = answering.map { $0.header.messageType.isAcknowledged || configuration.faults.contains(.acksAnAck) } ?? false
                    precondition(owed && answering?.header.sequence == frame.header.sequence && answering?.header.sessionID == frame.header.sessionID,
                                 "an ACK answers no frame owed one")
                }
                if type == .data, !configuration.faults.contains(.newSequenceOnResend) {
                    if let earlier = data[frame.header.sequence.rawValue] {
                        precondition(earlier.header.timestamp == frame.header.timestamp && earlier.payload == frame.payload, "a resend changed the message")
                    }
                    data[frame.header.sequence.rawValue] = frame
                }
            case let .report(event):
                if event == .finished {
                    precondition(!finished, "finished twice")
                    finished = true
                }
            case .schedule, .cancel:
                continue
            case .abort, .exit:
                preconditionFailure("the session died with no planted fault set")
            }
        }
    }

    check(session.start(at: now), answering: nil)
    for operation in operations {
        switch operation >> 5 {
        case 0:
            connected = true
            check(session.connected(at: now), answering: nil)
        case 1:
            guard connected else { continue }
            do {
                guard let frame = try decoder.nextFrame() else { continue }
                check(session.received(frame, at: now), answering: frame)
            } catch {
                check(session.failed(error, at: now), answering: nil)
                decoder.resynchronize()
            }
        case 2:
            let timer = ClientTimer.allCases[Int(operation) % ClientTimer.allCases.count]
            check(session.timerFired(timer, at: now, random: &random), answering: nil)
        case 3:
            nextID += 1
            check(session.submit(ClientMessage(id: nextID, payload: Array(input.prefix(Int(operation & 0x1F)))), at: now), answering: nil)
        case 4:
            connected = false
            check(session.connectionLost(at: now, random: &random), answering: nil)
        case 5:
            check(session.connectFailed(at: now, random: &random), answering: nil)
        case 6:
            now.elapsed += .milliseconds(100) * Int(operation & 0x1F)
            now.unixSeconds &+= UInt32(operation & 0x03)
        default:
            check(session.endOfInput(at: now), answering: nil)
        }
    }
    return 0
}
