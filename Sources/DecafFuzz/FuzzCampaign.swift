/// A campaign against one kind of target (a codec, a server): it runs until its settings say stop
/// or it is cancelled, hands on each finding as it is made, and stops what it started.
public protocol FuzzCampaign: Sendable {
    func run(progress: (FuzzProgress) -> Void, found: (FuzzFinding) -> Void) async throws(FuzzError) -> FuzzProgress
    /// Stops the testee or the server the campaign started.
    func stop()
    /// `findings` with the cause of each that was unexplained when found, where a mistake the
    /// campaign named later gives it (`FindingDiagnosis.namedCause`): for the reports at the end.
    func explained(_ findings: [FuzzFinding]) -> [FuzzFinding]
}

extension FuzzCampaign {
    /// A campaign that names causes as it finds them (the codec's, by its own catalog) has
    /// nothing to add at the end.
    public func explained(_ findings: [FuzzFinding]) -> [FuzzFinding] { findings }

    /// How long after its duration a campaign is cut short, whatever its target does: twice the
    /// timeout, the longest wait for the last input's answer once asked again.
    public static func grace(of settings: FuzzSettings) -> Duration {
        settings.timeout * 2
    }

    /// Runs the campaign as `run` does, but ends it `grace(of:)` after `settings.duration` at
    /// the latest: an answer still awaited then is given up, a finding being minimized is handed
    /// on as far as it got, and the progress reached comes back with `cutShort` set. Without a
    /// duration it is `run`.
    public func run(within settings: FuzzSettings, progress: @escaping @Sendable (FuzzProgress) -> Void,
                    found: @escaping @Sendable (FuzzFinding) -> Void) async throws(FuzzError) -> FuzzProgress {
        guard let duration = settings.duration else { return try await run(progress: progress, found: found) }
        let end = duration + Self.grace(of: settings)
        let outcome = await withTaskGroup(of: Result<FuzzProgress, FuzzError>?.self) { group in
            group.addTask {
                do throws(FuzzError) {
                    return .success(try await run(progress: progress, found: found))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: end)
                return nil
            }
            var finished: Result<FuzzProgress, FuzzError>?
            var cut = false
            for await result in group {
                if let result {
                    finished = result
                    group.cancelAll()
                    break
                }
                // The end came first: the campaign is cancelled, and returns what it reached.
                cut = !Task.isCancelled
                group.cancelAll()
            }
            return finished.map { result in
                result.map { state in
                    guard cut else { return state }
                    var state = state
                    state.interrupted = false
                    state.cutShort = true
                    return state
                }
            } ?? .failure(.cannotStart("the campaign ended without a result"))
        }
        return try outcome.get()
    }
}
