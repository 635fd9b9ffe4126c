/// A campaign against one kind of target (a codec, a server): it runs until its settings say stop
/// or it is cancelled, hands on each finding as it is made, and stops what it started.
public protocol FuzzCampaign: Sendable {
    func run(progress: (FuzzProgress) -> Void, found: (FuzzFinding) -> Void) async throws(FuzzError) -> FuzzProgress
    /// Stops the testee or the server the campaign started.
    func stop()
}
