import DecafJSON
import DecafVectors
import DecafWire
import Foundation

/// The lines of the testee protocol (`Specs/conform-testee.md`): one JSON object per line, a
/// request on the testee's standard input, its answer on its standard output.
public enum TesteeMessage {
    /// What the driver asks.
    public struct Request: Codable, Hashable, Sendable {
        public var `case`: String
        public var op: CodecCase.Operation
        /// decode: the byte stream, hex.
        public var hex: String?
        /// decode: the receiver's options (the vector group's).
        public var options: FrameVectorFileJSON.Options?
        /// encode: the header fields; bodyLength and checksum are the testee's to compute.
        public var header: FrameHeaderJSON?
        /// encode: the TLV bytes, hex, before compression.
        public var payload: String?
    }

    /// What the testee answers.
    public struct Response: Codable, Hashable, Sendable {
        /// `frame`, `error`, `bytes` or `skipped`.
        public var result: String
        public var header: FrameHeaderJSON?
        public var payload: String?
        public var error: String?
        public var offset: Int?
        public var hex: String?
        public var reason: String?

        public init(result: String, header: FrameHeaderJSON? = nil, payload: String? = nil, error: String? = nil, offset: Int? = nil,
                    hex: String? = nil, reason: String? = nil) {
            self.result = result
            self.header = header
            self.payload = payload
            self.error = error
            self.offset = offset
            self.hex = hex
            self.reason = reason
        }

        /// Whether `other` is the same answer: the same result, error and offset, the same header
        /// fields (by number: names and the time are for people), the same payload and bytes.
        public func answers(like other: Response) -> Bool {
            result == other.result && error == other.error && offset == other.offset && payload?.lowercased() == other.payload?.lowercased()
                && hex?.lowercased() == other.hex?.lowercased() && header?.frameHeader == other.header?.frameHeader
                && header?.sequenceCategory == other.header?.sequenceCategory && header?.sequenceCounter == other.header?.sequenceCounter
        }
    }

    static func request(for codecCase: CodecCase) -> Request {
        switch codecCase.task {
        case .decode:
            return Request(case: codecCase.id, op: .decode, hex: Hex.string(codecCase.vector.bytes), options: request(options: codecCase.options))
        case let .encode(frame):
            return Request(case: codecCase.id, op: .encode, header: FrameHeaderJSON(frame.header), payload: Hex.string(frame.payload))
        }
    }

    /// The options a decode request carries for `options`: all a testee learns of them.
    static func request(options: DecodeOptions) -> FrameVectorFileJSON.Options {
        FrameVectorFileJSON.Options(options)
    }

    static func line(_ request: Request) -> String { JSONLine.encode(request) }
}
