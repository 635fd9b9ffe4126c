@testable import DecafNIO
import DecafWire
import Testing

/// The client's event queue: nothing lost while nobody waits, several waiters served in order,
/// each with its own timeout.
@Suite("client event queue")
struct WireEventQueueTests {
    static func frame(_ counter: UInt32) -> WireEvent {
        let header = FrameHeader(messageType: .ack, sequence: SequenceNumber(category: .normal, counter: counter), timestamp: 0, sessionID: SessionID(rawValue: 1))
        return .frame(Frame(header: header, body: []))
    }

    @Test("events queued while nobody waits come out in order, across the queue's compaction")
    func queuedInOrder() async {
        let queue = WireEventQueue()
        for counter in 0..<500 { queue.push(Self.frame(UInt32(counter))) }
        var received: [WireEvent] = []
        for _ in 0..<500 {
            if let event = await queue.next(timeout: .seconds(5)) { received.append(event) }
        }
        #expect(received == (0..<500).map { Self.frame(UInt32($0)) })
        #expect(await queue.next(timeout: .milliseconds(20)) == nil)
    }

    @Test("two waiters at once each get an event, the first waiter the first event")
    func twoWaiters() async {
        let queue = WireEventQueue()
        // The waits are bounded: on a loaded machine a waiter could otherwise expire before the
        // second one registers, and the loop would poll for ever. The loop sleeps a millisecond
        // rather than yields: a task that only yields goes straight back on the cooperative pool
        // and can be taken again ahead of the waiter it waits for and of other tests. Seen once in
        // a full run: this test failed after 97 s with one waiter registered, tests of a few
        // milliseconds ended together at 60.8 s, the minute this loop spun, and a conformance run
        // beside it ran out of its time.
        let deadline = ContinuousClock.now + .seconds(60)
        async let first = queue.next(timeout: .seconds(120))
        while queue.waiterCount < 1, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
        async let second = queue.next(timeout: .seconds(120))
        while queue.waiterCount < 2, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(queue.waiterCount == 2, "the two waiters did not register within a minute")
        queue.push(Self.frame(1))
        queue.push(Self.frame(2))
        #expect(await first == Self.frame(1))
        #expect(await second == Self.frame(2))
    }

    @Test("a waiter that times out gets nil and takes nothing from the next one")
    func timeoutTakesNothing() async {
        let queue = WireEventQueue()
        #expect(await queue.next(timeout: .milliseconds(10)) == nil)
        queue.push(Self.frame(7))
        #expect(await queue.next(timeout: .seconds(5)) == Self.frame(7))
    }
}
