/// How timing verdicts allow for a loaded machine, the same for every timing case, server and
/// client. A wait is measured from the earliest moment the implementation could have started its
/// timer (when the suite had written the last byte the timer depends on, or was about to connect),
/// so the measurement can only come out long: a scheduler that runs the suite late never makes a
/// correct implementation look early. It may still come out a little short, when the suite saw the
/// frame that starts the timer later than the implementation sent it; and it may come out much
/// longer on a busy machine.
public enum TimingTolerance {
    /// How much shorter than its expected length a measured wait may be.
    public static let early: Duration = .milliseconds(75)

    /// How much longer than `wait` a measured wait may be: the longer of 1 s and the wait itself.
    public static func late(_ wait: Duration) -> Duration { max(.seconds(1), wait) }

    /// The measured lengths that pass for a wait of `expected`.
    public static func bounds(_ expected: Duration) -> ClosedRange<Duration> {
        max(.zero, expected - early)...(expected + late(expected))
    }
}
