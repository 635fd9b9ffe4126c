import DecafDissect
import DecafJSON
import DecafTestSupport
import DecafVectors
import DecafWire
import Foundation
import Testing

/// The committed golden vectors, read from `Fixtures/vectors/*.json`.
enum CommittedVectors {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var group: FrameVectorFileJSON.Group
        var test: FrameVectorFileJSON.Test
        var bytes: [UInt8] { Hex.bytes(test.hex)! }
        var options: DecodeOptions { group.options.decodeOptions }
        var testDescription: String { "tcId \(test.tcId) (\(group.name)): \(test.comment)" }
    }

    static let files: [(name: String, json: FrameVectorFileJSON)] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: FixturePaths.vectors.path)) ?? []
        return names.filter { $0.hasPrefix("frame-") && $0.hasSuffix(".json") }.sorted().map { name in
            let data = FileManager.default.contents(atPath: FixturePaths.vectors.appending(path: name).path)!
            return (name, try! JSONDecoder().decode(FrameVectorFileJSON.self, from: data))
        }
    }()

    static let cases: [Case] = files.flatMap { file in
        file.json.testGroups.flatMap { group in group.tests.map { Case(file: file.name, group: group, test: $0) } }
    }

    static let valid = cases.filter { $0.test.result == .valid }

    /// Everything a decoder makes of `chunks`: the frames, or the first error. `inPlace` takes the
    /// frames with `decodeFrames` (owned copies of the views) instead of `nextFrame`.
    static func decode(_ chunks: [ArraySlice<UInt8>], options: DecodeOptions, inPlace: Bool = false) -> Result<[Frame], WireError> {
        Result { () throws(WireError) in
            var decoder = FrameDecoder(options: options)
            var frames: [Frame] = []
            for chunk in chunks {
                decoder.append(Array(chunk))
                if inPlace {
                    try decoder.decodeFrames { frames.append($0.frame) }
                } else {
                    while let frame = try decoder.nextFrame() { frames.append(frame) }
                }
            }
            try decoder.finish()
            return frames
        }
    }
}

@Suite("Golden vectors")
struct GoldenVectorTests {
    @Test("the committed fixtures are exactly what the generator makes")
    func fixturesAreCurrent() throws {
        #expect(try FixtureSet.verify(in: FixturePaths.fixtures) == [])
    }

    @Test("there are at least 150 frame vectors with unique tcIds across files")
    func count() {
        let ids = CommittedVectors.cases.map(\.test.tcId)
        #expect(ids.count >= 150)
        #expect(Set(ids).count == ids.count)
        for file in CommittedVectors.files {
            #expect(file.json.numberOfTests == file.json.testGroups.reduce(0) { $0 + $1.tests.count })
            #expect(file.json.schema == FrameVectorFileJSON.schemaName)
            let used = Set(file.json.testGroups.flatMap { $0.tests.flatMap(\.flags) })
            #expect(Set(file.json.notes.keys) == used, "every flag used has a note, and only those")
        }
    }

    @Test("every requirement of sections 1-6 has a valid vector, and an invalid one where one can exist")
    func requirementCoverage() {
        let sections = RequirementID.allCases.filter { !["HS", "EX", "RECONNECT"].contains($0.rawValue.split(separator: "-")[0]) }
        let noInvalidCase: Set<RequirementID> = [.seq1, .seq2, .session1, .replay1, .tlv4]
        func covered(_ result: VectorResult) -> Set<String> {
            Set(CommittedVectors.cases.filter { $0.test.result == result }.flatMap(\.test.requirements))
        }
        let valid = covered(.valid)
        let invalid = covered(.invalid)
        for requirement in sections {
            #expect(valid.contains(requirement.rawValue), "no valid vector for \(requirement.rawValue)")
            if !noInvalidCase.contains(requirement) {
                #expect(invalid.contains(requirement.rawValue), "no invalid vector for \(requirement.rawValue)")
            }
        }
    }

    @Test("each vector decodes to its stated verdict, error and offset", arguments: CommittedVectors.cases)
    func verdict(_ vector: CommittedVectors.Case) throws {
        let outcome = CommittedVectors.decode([vector.bytes[...]], options: vector.options)
        switch (vector.test.result, outcome) {
        case let (.valid, .success(frames)), let (.acceptable, .success(frames)):
            #expect(frames.count == 1)
            let frame = try #require(frames.first)
            let expected = try #require(vector.test.frame)
            #expect(FrameHeaderJSON(frame.header) == expected.header)
            #expect(Hex.string(frame.payload) == expected.payload)
            #expect(frame.fields.map(TLVField.init) == expected.tlv.map { $0.tlvField! })
            #expect(frame.hasSequenceCategoryMismatch == expected.warnings.contains("SEQ-2"))
        case let (.invalid, .failure(error)), let (.acceptable, .failure(error)):
            #expect(error.code.name == vector.test.error)
            #expect(error.offset == vector.test.offset)
        case let (_, outcome):
            Issue.record("expected \(vector.test.result) \(vector.test.error ?? ""), got \(outcome)")
        }
    }

    @Test("the dissector's JSON of every valid vector's frame is the vector file's frame: one JSON form for both", arguments: CommittedVectors.valid)
    func oneJSONForm(_ vector: CommittedVectors.Case) throws {
        let expected = try #require(vector.test.frame)
        let records = try StreamCapture.events(of: vector.bytes, options: vector.options).compactMap { event -> FrameRecordJSON? in
            if case let .frame(frame) = event { try frame.record.withParts { try FrameRecordJSON($0) } } else { nil }
        }
        #expect(records.map(\.header) == [expected.header])
        #expect(records.map(\.tlv) == [expected.tlv])
    }

    @Test("an acceptable vector, read by a receiver that takes the brief's other choice, is its stated frame",
          arguments: CommittedVectors.cases.filter { $0.test.result == .acceptable })
    func acceptableFrames(_ vector: CommittedVectors.Case) throws {
        var lenient = vector.options
        lenient.acceptsEncryptedBodies = true
        lenient.tlv.depthLimit += 1
        let frames = try CommittedVectors.decode([vector.bytes[...]], options: lenient).get()
        let expected = try #require(vector.test.frame, "an acceptable vector states the frame a receiver that accepts it decodes")
        #expect(frames.count == 1)
        #expect(frames.map { FrameHeaderJSON($0.header) } == [expected.header])
        #expect(frames.map { Hex.string($0.payload) } == [expected.payload])
        #expect(frames.first?.fields.map(TLVField.init) == expected.tlv.compactMap(\.tlvField))
    }

    @Test("valid vectors agree with the system zlib: checksum and inflated body", arguments: CommittedVectors.valid)
    func zlibReference(_ vector: CommittedVectors.Case) throws {
        let bytes = vector.bytes
        let body = Array(bytes[FrameHeader.size...])
        let header = try #require(FrameHeader(decoding: bytes))
        #expect(header.checksum == ReferenceZlib.crc32(body))
        if header.compressType == .zlib && !body.isEmpty {
            #expect(ReferenceZlib.inflate(body).map(Hex.string) == vector.test.frame?.payload)
        }
    }

    @Test("valid vectors re-encode byte-exact", arguments: CommittedVectors.valid)
    func reencode(_ vector: CommittedVectors.Case) throws {
        let bytes = vector.bytes
        let frame = try CommittedVectors.decode([bytes[...]], options: vector.options).get()[0]
        #expect(frame.header.bytes + frame.body == bytes, "header and wire body")
        guard !vector.test.flags.contains("OtherEncoder") else { return }
        var encoder = FrameEncoder()
        let fields = frame.fields.map(TLVField.init)
        #expect(encoder.encode(frame.header, fields: fields) == bytes, "from the field tree")
    }

    @Test("every 2-way split and byte-by-byte feeding give the same result, frame by frame or in place",
          arguments: CommittedVectors.cases.filter { $0.bytes.count < 5000 })
    func splits(_ vector: CommittedVectors.Case) {
        let bytes = vector.bytes
        let whole = CommittedVectors.decode([bytes[...]], options: vector.options)
        #expect(CommittedVectors.decode([bytes[...]], options: vector.options, inPlace: true) == whole)
        for cut in 0...bytes.count {
            #expect(CommittedVectors.decode([bytes[..<cut], bytes[cut...]], options: vector.options) == whole, "cut at \(cut)")
            #expect(CommittedVectors.decode([bytes[..<cut], bytes[cut...]], options: vector.options, inPlace: true) == whole, "in place, cut at \(cut)")
        }
        let byteByByte = bytes.indices.map { bytes[$0...$0] }
        #expect(CommittedVectors.decode(byteByByte, options: vector.options) == whole)
        #expect(CommittedVectors.decode(byteByByte, options: vector.options, inPlace: true) == whole)
    }
}

@Suite("Golden vectors, damaged")
struct DamagedVectorTests {
    @Test("every proper prefix of a valid vector is TRUNCATED_FRAME at the frame's start", arguments: CommittedVectors.valid)
    func prefixes(_ vector: CommittedVectors.Case) {
        let bytes = vector.bytes
        for cut in 1..<bytes.count {
            let outcome = CommittedVectors.decode([bytes[..<cut]], options: vector.options)
            guard case let .failure(error) = outcome else {
                Issue.record("prefix of \(cut) bytes decoded")
                continue
            }
            #expect(error.code == .truncatedFrame && error.offset == 0, "prefix of \(cut) bytes: \(error)")
        }
    }

    @Test("every single-bit flip of a valid vector ends in a frame or a typed error",
          arguments: CommittedVectors.valid.filter { $0.bytes.count <= 512 })
    func bitFlips(_ vector: CommittedVectors.Case) {
        let bytes = vector.bytes
        var rejected = 0
        for index in bytes.indices {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[index] ^= 1 << UInt8(bit)
                if case .failure = CommittedVectors.decode([damaged[...]], options: vector.options) { rejected += 1 }
            }
        }
        // A flip in the body, the checksum or the magic can never go unnoticed.
        let mustFail = (bytes.count - FrameHeader.size) * 8 + 64
        #expect(rejected >= mustFail, "only \(rejected) of \(bytes.count * 8) flips were refused")
    }
}

@Suite("Session id vectors (SESSION-1)")
struct SessionIDVectorTests {
    @Test("each UUID gives its stated session id, or none")
    func derivation() throws {
        let data = try #require(FileManager.default.contents(atPath: FixturePaths.vectors.appending(path: "session-id.json").path))
        let file = try JSONDecoder().decode(SessionIDVectorFileJSON.self, from: data)
        let tests = file.testGroups.flatMap(\.tests)
        #expect(tests.count == file.numberOfTests)
        for test in tests {
            let derived = SessionID(uuid: test.uuid)?.rawValue
            switch test.result {
            case .valid: #expect(derived == test.sessionId, "tcId \(test.tcId)")
            case .invalid: #expect(derived == nil, "tcId \(test.tcId)")
            case .acceptable: #expect(derived == nil || derived == test.sessionId, "tcId \(test.tcId)")
            }
        }
    }
}
