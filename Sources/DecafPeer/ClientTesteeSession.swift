import DecafConformance
import NIOConcurrencyHelpers
import NIOCore

/// One client testee kept across the cases asked in it (AFLNet-style fuzzing): each case runs on
/// the connection the last one left, past its handshake, or on the client's next connection, and
/// a new testee is started only when the last one is gone (it exited, it did not come back, a case
/// ran out of time). Asked one case at a time.
public final class ClientTesteeSession: Sendable {
    /// The driver that keeps the testee, on its event loop.
    struct Kept {
        let eventLoop: EventLoop
        let driver: NIOLoopBound<ClientCaseDriver>
    }

    private let kept = NIOLockedValueBox<Kept?>(nil)
    private let asked = NIOLockedValueBox<[ClientCase]>([])

    /// The most cases `history` holds.
    public static let historyLimit = 16

    public init() {}

    var current: Kept? { kept.withLockedValue { $0 } }

    /// The cases asked of the testee the session keeps, oldest first, at most `historyLimit`: the
    /// last is the last asked; the ones before it are what that testee saw before it.
    public var history: [ClientCase] { asked.withLockedValue { $0 } }

    /// A testee was started for `testCase`, with `driver` keeping it.
    func keep(_ driver: ClientCaseDriver, on eventLoop: EventLoop, for testCase: ClientCase) {
        kept.withLockedValue { $0 = Kept(eventLoop: eventLoop, driver: NIOLoopBound(driver, eventLoop: eventLoop)) }
        asked.withLockedValue { $0 = [testCase] }
    }

    /// `testCase` was asked of the testee already kept.
    func asked(_ testCase: ClientCase) {
        asked.withLockedValue { history in
            history.append(testCase)
            if history.count > Self.historyLimit { history.removeFirst() }
        }
    }

    /// Stops the testee, when one is kept.
    public func end() {
        guard let ended = kept.withLockedValue({ kept in defer { kept = nil }; return kept }) else { return }
        ended.eventLoop.execute { ended.driver.value.retire() }
    }
}
