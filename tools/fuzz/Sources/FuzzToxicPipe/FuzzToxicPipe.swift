import DecafSession
import DecafWire

/// libFuzzer entry: the first byte chooses the toxics (a bit each), the next four their numbers,
/// the rest is what a sender sends, in chunks whose sizes the data chooses; a chunk-length byte of
/// 0xFF instead replaces the toxics mid-stream with those the next byte chooses, at a toxicity the
/// one after chooses, as the proxy's timelines and control API do. Whatever the toxics and their
/// changes, nothing is let out earlier than it came or than what went before it, nothing follows
/// the end of the stream, and the cuts come last; toxics that deliver every byte give back every
/// byte, in order, and then the end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzToxicPipe(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 5 else { return 0 }
    let mask = input[0]
    let small = Int(input[1]) + 1, probability = Double(input[2]) / 255, milliseconds = Duration.milliseconds(Int(input[3]))
    let all: [Toxic] = [
        .latency(milliseconds, jitter: milliseconds / 2), .bandwidth(bytesPerSecond: small * 100),
        .slicer(averageSize: small, sizeVariation: small / 2, delay: milliseconds), .packetLoss(probability: probability, retransmissionTimeout: milliseconds),
        .dropFrames(probability: probability, types: [.ack]), .duplicateFrames(probability: probability),
        .corruptFrames(probability: probability), .limitData(small * 64),
    ]
    func chosen(_ mask: UInt8) -> [Toxic] { all.indices.filter { mask & (1 << $0) != 0 }.map { all[$0] } }
    func onlyDelay(_ toxics: [Toxic]) -> Bool { toxics.allSatisfy(\.deliversEveryByte) }
    let toxics = chosen(mask)
    var delaysOnly = onlyDelay(toxics)
    var pipe = ToxicPipe(toxics: toxics, seed: UInt64(input[4]))
    var sent: [UInt8] = [], passed: [UInt8] = []
    var last = Duration.zero, now = Duration.zero, closed = false, ends = 0
    func check(_ passages: [ToxicPipe.Passage], at now: Duration) {
        for passage in passages {
            precondition(passage.at >= now && passage.at >= last, "a passage came out before its time")
            precondition(ends == 0, "something came after the end of the stream")
            last = passage.at
            switch passage {
            case let .bytes(bytes, _):
                precondition(!closed || !delaysOnly, "bytes after the close")
                passed += bytes
            case .end: ends += 1
            case .close, .reset: closed = true
            }
        }
    }
    var offset = 5
    while offset < input.count {
        if input[offset] == 0xFF, offset + 2 < input.count {
            let replacement = chosen(input[offset + 1])
            delaysOnly = delaysOnly && onlyDelay(replacement)
            check(pipe.replace(with: replacement.map { ActiveToxic($0, toxicity: Double(input[offset + 2]) / 255) }, at: now), at: now)
            offset += 3
            continue
        }
        let length = min(input.count - offset, Int(input[offset]) + 1)
        let chunk = Array(input[offset..<offset + length])
        sent += chunk
        check(pipe.received(chunk, at: now), at: now)
        now += .milliseconds(Int(input[offset] & 0x0F))
        offset += length
    }
    check(pipe.ended(at: now), at: now)
    precondition(ends == 1, "the end of the stream did not come out once")
    precondition(!delaysOnly || passed == sent, "a toxic that delivers every byte lost or changed some")
    return 0
}
