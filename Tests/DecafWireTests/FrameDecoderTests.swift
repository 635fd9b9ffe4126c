import DecafTestSupport
import DecafWire
import Testing

@Suite("Streaming frame decoder (FRAME-2, FRAME-3, CRC-2)")
struct FrameDecoderTests {
    /// Three frames of different shapes, one of them compressed.
    static let stream: [UInt8] = {
        var encoder = FrameEncoder()
        let base = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 1_700_000_000, sessionID: SessionID(rawValue: 0x444C))
        var control = base
        control.messageType = .control
        control.sequence = SequenceNumber(category: .control, counter: 1)
        var zlib = base
        zlib.compressType = .zlib
        return encoder.encode(base, fields: [TLVField(tag: .text, text: "hello")])
            + encoder.encode(control, fields: [VersionRequest(version: .v1_0, features: .basic).field])
            + encoder.encode(zlib, fields: [TLVField(tag: .text, text: String(repeating: "compress me ", count: 20)), .container([])])
    }()

    /// Decodes `chunks` appended one by one, draining after each, then finishes the stream.
    static func decode(_ chunks: [ArraySlice<UInt8>], options: DecodeOptions = DecodeOptions()) throws(WireError) -> [Frame] {
        var decoder = FrameDecoder(options: options)
        var frames: [Frame] = []
        for chunk in chunks {
            decoder.append(Array(chunk))
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        try decoder.finish()
        return frames
    }

    @Test("coalesced frames come out one by one, in order, with their stream offsets")
    func coalesced() throws {
        let frames = try Self.decode([Self.stream[...]])
        #expect(frames.count == 3)
        #expect(frames.map(\.header.messageType) == [.data, .control, .data])
        #expect(frames[0].streamOffset == 0)
        #expect(frames[1].streamOffset == frames[0].wireLength)
        #expect(frames[2].streamOffset == frames[0].wireLength + frames[1].wireLength)
        #expect(frames[2].fields.map(\.tag) == [.text, .container])
    }

    @Test("every 2-way split gives the same frames")
    func everySplit() throws {
        let whole = try Self.decode([Self.stream[...]])
        for cut in 0...Self.stream.count {
            #expect(try Self.decode([Self.stream[..<cut], Self.stream[cut...]]) == whole, "cut at \(cut)")
        }
    }

    @Test("byte by byte gives the same frames")
    func byteByByte() throws {
        let whole = try Self.decode([Self.stream[...]])
        #expect(try Self.decode(Self.stream.indices.map { Self.stream[$0...$0] }) == whole)
    }

    @Test("appending without draining in between loses nothing")
    func appendsWithoutDraining() throws {
        var decoder = FrameDecoder()
        for chunk in stride(from: 0, to: Self.stream.count, by: 7) {
            decoder.append(Array(Self.stream[chunk..<min(chunk + 7, Self.stream.count)]))
        }
        var frames: [Frame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        try decoder.finish()
        #expect(frames == (try Self.decode([Self.stream[...]])))
    }

    @Test("many appends before any draining wait in order, uncopied, and all their frames come out")
    func queuedAppends() throws {
        var random = SeededGenerator(seed: 0x0E0E)
        var encoder = FrameEncoder()
        var decoder = FrameDecoder()
        var pieces: [[UInt8]] = []
        for _ in 0..<2000 {
            let frame = encoder.encode(random.header(), fields: random.fields(maxCount: 2))
            let cut = Int.random(in: 0...frame.count, using: &random)
            pieces += [Array(frame[..<cut]), Array(frame[cut...])]
        }
        for piece in pieces { decoder.append(piece) }
        #expect(decoder.bufferedByteCount == pieces.reduce(0) { $0 + $1.count })
        var frames = 0
        frames += try decoder.decodeFrames { _ in }
        while try decoder.nextFrame() != nil { frames += 1 }
        try decoder.finish()
        #expect(frames == 2000)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("frames from one append share its storage: nothing is copied")
    func zeroCopy() throws {
        let bytes = Self.stream
        var decoder = FrameDecoder()
        decoder.append(bytes)
        let frame = try #require(try decoder.nextFrame())
        let base = bytes.withUnsafeBytes { $0.baseAddress! }
        let body = frame.body.withUnsafeBytes { $0.baseAddress! }
        #expect(body == base + FrameHeader.size)
    }

    @Test("an oversized body_length is refused once its field has arrived, with the body never buffered")
    func oversizedFromHeader() {
        var header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 0, sessionID: SessionID(rawValue: 0))
        header.bodyLength = 0xFFFF_FFFF
        var decoder = FrameDecoder()
        decoder.append(Array(header.bytes.prefix(23)))
        #expect((try? decoder.nextFrame()) == .some(nil))
        decoder.append(Array(header.bytes[23...]))
        #expect(throws: WireError(.bodyTooLarge(length: 0xFFFF_FFFF, limit: DecodeOptions.defaultBodyLimit), offset: 20)) {
            try decoder.nextFrame()
        }
        #expect(decoder.bufferedByteCount == FrameHeader.size)
    }

    @Test("a header at the limit waits for its body without reserving room for it")
    func noReservationForClaimedLength() throws {
        var header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 0, sessionID: SessionID(rawValue: 0))
        header.bodyLength = UInt32(DecodeOptions.defaultBodyLimit)
        var decoder = FrameDecoder()
        decoder.append(header.bytes + [0x10, 0x01])
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == FrameHeader.size + 2)
        #expect(throws: WireError(.truncatedFrame(received: 30, expected: 28 + DecodeOptions.defaultBodyLimit), offset: 0)) {
            try decoder.finish()
        }
    }

    @Test("a stream that ends inside a frame is TRUNCATED_FRAME at that frame's start, at every offset")
    func truncationEverywhere() throws {
        let frames = try Self.decode([Self.stream[...]])
        for cut in 1..<Self.stream.count {
            let complete = frames.filter { $0.streamOffset + $0.wireLength <= cut }
            let start = complete.last.map { $0.streamOffset + $0.wireLength } ?? 0
            var decoder = FrameDecoder()
            decoder.append(Array(Self.stream[..<cut]))
            var decoded = 0
            while try decoder.nextFrame() != nil { decoded += 1 }
            #expect(decoded == complete.count)
            if start == cut {
                try decoder.finish()
            } else {
                #expect(throws: WireError.self) { try decoder.finish() }
                do { try decoder.finish() } catch {
                    #expect(error.code == .truncatedFrame && error.offset == start && error.frameOffset == start, "cut at \(cut)")
                }
            }
        }
    }

    @Test("every single-bit flip ends in a frame or a typed error, never a crash or a hang")
    func bitFlips() {
        var outcomes: [ErrorCode?: Int] = [:]
        for index in Self.stream.indices {
            for bit in 0..<8 {
                var bytes = Self.stream
                bytes[index] ^= 1 << UInt8(bit)
                do {
                    _ = try Self.decode([bytes[...]])
                    outcomes[nil, default: 0] += 1
                } catch {
                    outcomes[error.code, default: 0] += 1
                }
            }
        }
        #expect(outcomes.values.reduce(0, +) == Self.stream.count * 8)
        #expect(outcomes[.checksumMismatch, default: 0] > 0)
        #expect(outcomes[.badMagic] == 3 * 32)
    }

    @Test("errors are sticky until the decoder resynchronizes on the next magic")
    func resynchronize() throws {
        let garbage: [UInt8] = Array("noise!".utf8)
        var corrupt = Self.stream
        corrupt[30] ^= 0xFF
        var decoder = FrameDecoder()
        decoder.append(garbage + corrupt)
        #expect(throws: WireError.self) { try decoder.nextFrame() }
        #expect(throws: WireError.self) { try decoder.nextFrame() }
        decoder.resynchronize()
        #expect(throws: WireError(.checksumMismatch(stored: FrameHeader(decoding: Self.stream)!.checksum,
                                                      computed: CRC32.checksum(corrupt[28..<39])), offset: 24, frameOffset: 6)) {
            try decoder.nextFrame()
        }
        #expect(decoder.discardedByteCount == garbage.count)
        decoder.resynchronize()
        var rest: [Frame] = []
        while let frame = try decoder.nextFrame() { rest.append(frame) }
        try decoder.finish()
        #expect(rest.count == 2)
        #expect(rest[0].streamOffset == garbage.count + 39)
        #expect(decoder.discardedByteCount == garbage.count)
    }

    @Test("resynchronizing finds a magic split across appends")
    func resynchronizeAcrossAppends() throws {
        var decoder = FrameDecoder()
        decoder.append(Array("xx".utf8) + Array(Self.stream.prefix(2)))
        #expect(throws: WireError.self) { try decoder.nextFrame() }
        decoder.resynchronize()
        #expect(try decoder.nextFrame() == nil)
        decoder.append(Array(Self.stream.dropFirst(2)))
        var frames: [Frame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        #expect(frames.count == 3)
        #expect(decoder.discardedByteCount == 2)
    }

    @Test("random frames with and without compression decode to what was encoded")
    func randomRoundTrips() throws {
        var random = SeededGenerator(seed: 0xF4A3E)
        var encoder = FrameEncoder()
        var stream: [UInt8] = []
        var expected: [(FrameHeader, [TLVField])] = []
        for index in 0..<400 {
            let header = random.header(compress: index.isMultiple(of: 2) ? .zlib : .none)
            let fields = random.fields()
            stream += encoder.encode(header, fields: fields)
            expected.append((header, fields))
        }
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + Int.random(in: 1...3000, using: &random))
            chunks.append(stream[start..<end])
            start = end
        }
        let frames = try Self.decode(chunks)
        #expect(frames.count == expected.count)
        for (frame, (header, fields)) in zip(frames, expected) {
            var withComputed = header
            withComputed.bodyLength = frame.header.bodyLength
            withComputed.checksum = frame.header.checksum
            #expect(frame.header == withComputed)
            #expect(frame.header.checksum == ReferenceZlib.crc32(Array(frame.body)))
            #expect(frame.fields.map(TLVField.init) == fields)
        }
    }

    @Test("decodeFrames hands out in place exactly the frames nextFrame returns, however the stream is cut")
    func inPlaceMatchesNextFrame() throws {
        var random = SeededGenerator(seed: 0x1A7E)
        var encoder = FrameEncoder()
        var stream: [UInt8] = []
        for index in 0..<300 {
            stream += encoder.encode(random.header(compress: index % 3 == 0 ? .zlib : .none), fields: random.fields())
        }
        let expected = try Self.decode([stream[...]])
        for _ in 0..<20 {
            var decoder = FrameDecoder()
            var frames: [Frame] = []
            var views: [(payload: [UInt8], offset: Int)] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 1...5000, using: &random))
                decoder.append(Array(stream[start..<end]))
                try decoder.decodeFrames { view in
                    frames.append(view.frame)
                    views.append((Array(view.payload), view.streamOffset))
                }
                start = end
            }
            try decoder.finish()
            #expect(frames == expected)
            #expect(views.map(\.payload) == expected.map { Array($0.payload) })
            #expect(views.map(\.offset) == expected.map(\.streamOffset))
        }
    }

    @Test("borrowed bytes decoded in place give the same frames, errors and resynchronisations as owned appends taken frame by frame, however the stream is cut")
    func borrowedMatchesOwned() throws {
        var random = SeededGenerator(seed: 0xB0AA)
        var encoder = FrameEncoder()
        var stream: [UInt8] = []
        for index in 0..<200 {
            var frame = encoder.encode(random.header(compress: index % 4 == 0 ? .zlib : .none), fields: random.fields())
            // Every fifth frame is damaged somewhere (header, checksum, body) and some are preceded by noise.
            if index % 5 == 1 { frame[Int.random(in: 0..<frame.count, using: &random)] ^= 0x40 }
            if index % 7 == 3 { stream += [0x01, 0xDE, 0xCA] }
            stream += frame
        }
        /// What a dissector sees, chunk by chunk (`|` after each): each frame's offset and bytes,
        /// each error, each resynchronisation.
        func transcript(borrowed: Bool, cuts: [Int], options: DecodeOptions) -> [String] {
            var decoder = FrameDecoder(options: options)
            var seen: [String] = []
            func drain(_ decode: (inout FrameDecoder) throws(WireError) -> Void) {
                while true {
                    do {
                        try decode(&decoder)
                        return
                    } catch {
                        seen.append("error \(error.code) at \(error.frameOffset)")
                        decoder.resynchronize()
                    }
                }
            }
            var start = 0
            for end in cuts + [stream.count] where end > start {
                let chunk = Array(stream[start..<end])
                var first = true
                drain { decoder throws(WireError) in
                    let handle: (FrameView) -> Void = { seen.append("frame \($0.streamOffset) \(Array($0.payload))") }
                    if borrowed && first {
                        first = false
                        _ = try chunk.withUnsafeBytes { raw in
                            Result { () throws(WireError) in try decoder.decodeFrames(in: raw, handle) }
                        }.get()
                    } else {
                        if first { decoder.append(chunk) }
                        first = false
                        // Frame by frame, against the in-place decoding of the borrowed run.
                        while let frame = try decoder.nextFrame() { frame.withView(handle) }
                    }
                }
                start = end
                seen.append("|")
            }
            do { try decoder.finish() } catch { seen.append("end \(error.code)") }
            seen.append("skipped \(decoder.discardedByteCount)")
            return seen
        }
        // With a small body limit, headers too are refused, some only once their last field arrives.
        var small = DecodeOptions()
        small.bodyLimit = 40
        for options in [DecodeOptions(), small] {
            let whole = transcript(borrowed: false, cuts: [], options: options).filter { $0 != "|" }
            #expect(whole.contains { $0.hasPrefix("error") } && whole.count > 150)
            for round in 0..<30 {
                var cuts: [Int] = []
                var at = 0
                while at < stream.count {
                    at = min(stream.count, at + Int.random(in: 1...(round.isMultiple(of: 2) ? 9 : 400), using: &random))
                    cuts.append(at)
                }
                let owned = transcript(borrowed: false, cuts: cuts, options: options)
                #expect(owned.filter { $0 != "|" } == whole)
                let borrowed = transcript(borrowed: true, cuts: cuts, options: options)
                let difference = (0..<min(borrowed.count, owned.count)).first { borrowed[$0] != owned[$0] }
                    ?? (borrowed.count == owned.count ? nil : min(borrowed.count, owned.count))
                #expect(difference == nil, "the same events after each chunk; first difference: \(difference.map { (borrowed.dropFirst($0).first, owned.dropFirst($0).first) }.map { "\($0)" } ?? "")")
            }
        }
    }

    @Test("decodeFrames hands out the frames before an error, then throws it")
    func inPlaceStopsAtError() {
        var bytes = Self.stream
        bytes[39 + 30] ^= 0x01
        var decoder = FrameDecoder()
        decoder.append(bytes)
        var seen = 0
        #expect(throws: WireError.self) { try decoder.decodeFrames { _ in seen += 1 } }
        #expect(seen == 1)
        #expect(throws: WireError.self) { try decoder.decodeFrames { _ in seen += 1 } }
        #expect(seen == 1)
    }

    @Test("a receiver told not to verify checksums takes a frame with a wrong one")
    func unverifiedChecksum() throws {
        var bytes = Array(Self.stream.prefix(39))
        bytes[24] ^= 0xFF
        #expect(throws: WireError.self) { try Self.decode([bytes[...]]) }
        var options = DecodeOptions()
        options.verifiesChecksum = false
        #expect(try Self.decode([bytes[...]], options: options).count == 1)
    }

    @Test("an encrypted body is accepted as opaque only when the receiver says so")
    func opaqueBodies() throws {
        var encoder = FrameEncoder()
        var header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 0, sessionID: SessionID(rawValue: 0))
        header.encryptType = .aes256
        header.compressType = .zlib
        let bytes = encoder.encode(header, payload: [0xAA, 0xBB, 0xCC])
        #expect(throws: WireError(.undecryptableBody, offset: 16)) { try Self.decode([bytes[...]]) }
        var options = DecodeOptions()
        options.acceptsEncryptedBodies = true
        let frame = try #require(try Self.decode([bytes[...]], options: options).first)
        #expect(frame.isOpaque && frame.payload.isEmpty && Array(frame.body) == [0xAA, 0xBB, 0xCC])
    }
}
