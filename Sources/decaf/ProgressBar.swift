#if canImport(Glibc)
import DecafDissect
import Glibc
#endif

/// A progress bar on standard error for long reads, shown only when standard error is a terminal
/// and the input is large enough to be worth it; redrawn at most once per percent.
struct ProgressBar {
    static let minimumSize = 16 << 20

    let total: Int
    private var shownPercent = -1
    private let isShown: Bool

    init(total: Int?) {
        self.total = total ?? 0
        isShown = isatty(2) == 1 && self.total >= Self.minimumSize
    }

    mutating func update(_ done: Int) {
        guard isShown else { return }
        let percent = min(100, done * 100 / total)
        guard percent != shownPercent else { return }
        shownPercent = percent
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandleOutput.standardError.write("\r[\(bar)] \(percent)% of \(total >> 20) MiB")
    }

    func clear() {
        guard isShown, shownPercent >= 0 else { return }
        FileHandleOutput.standardError.write("\r" + String(repeating: " ", count: 60) + "\r")
    }
}
