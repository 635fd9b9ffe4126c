import DecafNIO
import DecafWire

/// What the opening handshake showed of a target: a Decaf server (even a broken one), whose cases
/// are worth running, or something else, said in one paragraph so that no case runs against an
/// HTTP server, a TLS port, a server that never reads, or one that closes every connection.
enum TargetProbe {
    /// What the handshake's report says, before or after a DATA frame was tried.
    enum Finding: Equatable {
        /// A Decaf server: run the cases against it.
        case speaks(TargetIdentity)
        /// Nothing came back at all: try a DATA frame before deciding (a server may ignore the
        /// handshake, HS-2's known defect, and still acknowledge DATA).
        case silent
        /// Not a Decaf server, or not one that answers: why, in the user's words.
        case unusable(String)
    }

    /// Judges the opening handshake's `report`: `offer` was sent to `target`, which had `timeout`
    /// to answer; `assumed` is the identity a target that speaks Decaf but gave no
    /// VERSION_RESPONSE is taken to have.
    static func judge(_ report: HandshakeReport, offer: VersionRequest, target: String, timeout: Duration, assumed: TargetIdentity) -> Finding {
        if let response = report.response {
            return .speaks(TargetIdentity(version: response.version, features: response.features,
                                          note: "from the opening handshake, which offered \(offer.version) and \(offer.features)"))
        }
        if report.speaksDecaf {
            var identity = assumed
            identity.note = "the opening handshake got no VERSION_RESPONSE but \(report.insteadOfResponse); assumed version \(assumed.version) and every known feature"
            return .speaks(identity)
        }
        if report.isSilent { return .silent }
        return .unusable(report.unusable(target: target, timeout: timeout) ?? "\(target) gave no sign of speaking Decaf")
    }

    /// What a DATA frame sent after a silent handshake showed: acknowledged, the target speaks
    /// Decaf and only ignored the handshake.
    static func judgeData(acknowledged: Bool, target: String, timeout: Duration, assumed: TargetIdentity) -> Finding {
        guard acknowledged else {
            return .unusable("\(target) accepted the connection but answered nothing within \(timeout), neither to a VERSION_REQUEST nor to a DATA frame. "
                + "Is it reading? A server that never reads its socket, or is stopped (SIGSTOP, a debugger), looks like this; "
                + "if it is only slow, give it more time with --timeout.")
        }
        var identity = assumed
        identity.note = "the opening handshake got no answer, but a DATA frame was acknowledged; assumed version \(assumed.version) and every known feature"
        return .speaks(identity)
    }
}

/// A target the cases cannot run against: unreachable, not a Decaf server, or one that stopped
/// answering. The run stops, since every case would fail for the same reason.
public struct TargetProblem: Error, CustomStringConvertible {
    /// In the user's words, one paragraph: what answered instead, and what to try.
    public let reason: String

    public var description: String { reason }
}
