/// The JSON form of the session-id derivation vectors (schema `decaf_session_id_vectors_v1`).
public struct SessionIDVectorFileJSON: Codable, Hashable, Sendable {
    public static let schemaName = "decaf_session_id_vectors_v1.json"

    public var algorithm: String
    public var schema: String
    public var generatorVersion: String
    public var numberOfTests: Int
    public var header: [String]
    public var testGroups: [Group]

    public struct Group: Codable, Hashable, Sendable {
        public var type: String
        public var comment: String
        public var tests: [Test]
    }

    public struct Test: Codable, Hashable, Sendable {
        public var tcId: Int
        public var comment: String
        public var requirements: [String]
        public var uuid: String
        public var result: VectorResult
        public var sessionId: UInt16?
    }
}

extension SessionIDVectorFileJSON {
    public init(_ vectors: [SessionIDVector], generatorVersion: String) {
        self.init(
            algorithm: "DECAF-SESSION-ID",
            schema: Self.schemaName,
            generatorVersion: generatorVersion,
            numberOfTests: vectors.count,
            header: [
                "session_id from a session UUID (SESSION-1): remove the dashes, read the first 8 hex digits as a u32 v,",
                "session_id = (v >> 16) XOR (v & 0xFFFF). acceptable: the first 8 digits are usable but the string is not a UUID.",
            ],
            testGroups: [Group(type: "SessionIdDerivation", comment: "UUID strings and the session ids they give.", tests: vectors.map {
                Test(tcId: $0.tcId, comment: $0.comment, requirements: ["SESSION-1"], uuid: $0.uuid, result: $0.result, sessionId: $0.sessionID)
            })]
        )
    }
}
