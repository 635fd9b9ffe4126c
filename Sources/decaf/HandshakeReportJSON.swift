import DecafDissect
import DecafJSON
import DecafNIO
import DecafPeer
import DecafWire

/// `decaf handshake --json`: the report as one JSON object.
struct HandshakeReportJSON: Encodable {
    struct ErrorJSON: Encodable {
        var code: UInt16
        var name: String?
        var reason: String
    }

    var ok: Bool
    var acknowledged = false
    var offeredVersion: String?
    var offeredFeatures: UInt16?
    var version: String?
    var features: UInt16?
    var featureNames: [String]?
    var roundTripMs: Double?
    var serverError: ErrorJSON?
    var protocolError: String?
    var closedByServer = false
    var timedOut = false
    var connectionError: String?
    /// Why nothing that speaks Decaf answered, when that is the case.
    var notDecaf: String?

    init(_ report: HandshakeReport, unusable: String? = nil) {
        notDecaf = unusable
        ok = report.succeeded
        acknowledged = report.acknowledged
        offeredVersion = report.offered.version.description
        offeredFeatures = report.offered.features.rawValue
        version = report.response?.version.description
        features = report.response?.features.rawValue
        featureNames = report.response?.features.names
        roundTripMs = report.roundTrip.map(Milliseconds.value)
        serverError = report.error.map { ErrorJSON(code: $0.code, name: ErrorCode(rawValue: $0.code)?.name, reason: $0.reason) }
        protocolError = report.protocolError?.description
        closedByServer = report.closedByServer
        timedOut = report.timedOut
    }

    init(connectionError: String) {
        ok = false
        self.connectionError = connectionError
    }

    var line: String { JSONLine.encode(self) }
}
