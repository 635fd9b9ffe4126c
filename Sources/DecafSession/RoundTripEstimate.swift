/// The round trip as TCP estimates it (RFC 6298): a smoothed mean and deviation of the samples,
/// and from them the time after which a frame without an ACK is taken for lost: the mean plus four
/// deviations, within `bounds`. Samples come only from frames sent once (Karn's rule).
public struct RoundTripEstimate: Hashable, Sendable {
    /// The least and the most the timeout may be.
    public let bounds: ClosedRange<Duration>
    /// The smoothed round trip; nil before the first sample.
    public private(set) var smoothed: Duration?
    /// The smoothed deviation of the samples.
    public private(set) var deviation: Duration = .zero

    /// An estimate without samples, its timeout kept within `bounds`.
    public init(bounds: ClosedRange<Duration>) {
        self.bounds = bounds
    }

    /// The estimate with one more sample.
    public func adding(_ sample: Duration) -> RoundTripEstimate {
        var next = self
        if let smoothed {
            let difference = smoothed > sample ? smoothed - sample : sample - smoothed
            next.deviation = deviation * 0.75 + difference * 0.25
            next.smoothed = smoothed * 0.875 + sample * 0.125
        } else {
            next.smoothed = sample
            next.deviation = sample / 2
        }
        return next
    }

    /// How long to wait for an ACK.
    public var timeout: Duration {
        guard let smoothed else { return bounds.upperBound }
        return min(bounds.upperBound, max(bounds.lowerBound, smoothed + deviation * 4))
    }
}
