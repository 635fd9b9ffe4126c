/// A control API request refused, as toxiproxy answers one: `{"error": "...", "status": 404}`.
struct ControlError: Error, Encodable {
    let error: String
    let status: Int

    init(_ error: String, status: Int) {
        self.error = error
        self.status = status
    }

    static func badRequest(_ reason: String) -> ControlError { ControlError("bad request body: \(reason)", status: 400) }
    static let proxyNotFound = ControlError("proxy not found", status: 404)
    static let toxicNotFound = ControlError("toxic not found", status: 404)
}
