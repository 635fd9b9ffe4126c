@testable import decaf
import DecafPeer
import DecafSession
import DecafWire
import Testing

/// The checked types behind every option: what each accepts, and that everything else is refused
/// with a reason instead of a trap.
@Suite("command-line value types")
struct ArgumentTypeTests {
    @Test("durations take a unit or count seconds, and refuse what is not a finite, plain number", arguments: [
        ("500ms", Duration.milliseconds(500)), ("2s", .seconds(2)), ("1.5m", .seconds(90)), ("1h", .seconds(3600)),
        ("90", .seconds(90)), ("0.25", .milliseconds(250)), (".5s", .milliseconds(500)), ("0", .zero),
    ])
    func durations(text: String, duration: Duration) throws {
        #expect(try DurationArgument.nonNegative(text) == duration)
    }

    @Test("hostile durations are refused, each with a reason", arguments: [
        "", "nan", "NaN", "inf", "-inf", "-1", "+1", "1e3", "1.2.3", "ms", "5 s", "5d", "0x10",
        "18446744073709551616", String(repeating: "9", count: 10_000), "9999999999999s",
    ])
    func hostileDurations(text: String) {
        #expect(throws: ArgumentProblem.self) { try DurationArgument.nonNegative(text) }
    }

    @Test("a positive duration refuses zero, and rounding to zero")
    func positiveDurations() throws {
        #expect(throws: ArgumentProblem.self) { try DurationArgument.positive("0") }
        #expect(throws: ArgumentProblem.self) { try DurationArgument.positive("0.0000000001") }
        #expect(try DurationArgument.positive("1ms") == .milliseconds(1))
        // The longest accepted fits NIO's TimeAmount, so every timer can be set.
        #expect(try DurationArgument.positive("2562047h") < .nanoseconds(Int64.max))
    }

    @Test("integers are range-checked, decimal unless the protocol writes them in hex")
    func integers() throws {
        let count = IntegerArgument.within(1...10)
        #expect(try count("10") == 10)
        for text in ["0", "11", "-1", "", "1.5", "0x5", "nan", "18446744073709551616"] {
            #expect(throws: ArgumentProblem.self) { try count(text) }
        }
        let word: @Sendable (String) throws(ArgumentProblem) -> UInt32 = IntegerArgument.wire()
        #expect(try word("0xDECAFBAD") == 0xDECA_FBAD)
        #expect(try word("4294967295") == .max)
        #expect(throws: ArgumentProblem.self) { try word("0x1DECAFBAD") }
        #expect(throws: ArgumentProblem.self) { try word("0x") }
    }

    @Test("endpoints: HOST:PORT, bracketed IPv6, a port alone, and the ports each use allows")
    func endpoints() throws {
        #expect(try Endpoint.server("10.1.2.3:7447").description == "10.1.2.3:7447")
        #expect(try Endpoint.server("[::1]:7447").host == "::1")
        #expect(try Endpoint.server("[::1]:7447").description == "[::1]:7447")
        #expect(try Endpoint.server(":7447").host == "127.0.0.1")
        #expect(try Endpoint.listening("127.0.0.1:0").port == 0)
        for text in ["127.0.0.1:0", "::1:7447", "host", "host:", "host:65536", "host:-1", "a b:1", ""] {
            #expect(throws: ArgumentProblem.self) { try Endpoint.server(text) }
        }
    }

    @Test("sequences as frames print them, or as the whole number")
    func sequences() throws {
        #expect(try WireArgument.sequence("CONTROL/1") == SequenceNumber(category: .control, counter: 1))
        #expect(try WireArgument.sequence("control/0x10") == SequenceNumber(category: .control, counter: 16))
        #expect(try WireArgument.sequence("7/1") == SequenceNumber(category: SequenceCategory(rawValue: 7), counter: 1))
        #expect(try WireArgument.sequence("0x02000001") == SequenceNumber(category: .control, counter: 1))
        #expect(try WireArgument.sequence("\(SequenceNumber(category: .normal, counter: 500))") == SequenceNumber(rawValue: 500))
        for text in ["CONTROL/", "/1", "NOPE/1", "CONTROL/16777216", "256/1", "", "x"] {
            #expect(throws: ArgumentProblem.self) { try WireArgument.sequence(text) }
        }
    }

    @Test("faults by name, slow-ack with a delay, and nothing else")
    func faults() throws {
        #expect(try WireArgument.fault("fixed-features") == .fixedFeatures)
        #expect(try WireArgument.fault("slow-ack") == .slowAck(delay: PeerFault.defaultSlowAckDelay))
        #expect(try WireArgument.fault("slow-ack=250ms") == .slowAck(delay: .milliseconds(250)))
        for text in ["", "=", "slow-ack=", "slow-ack=-1", "slow-ack=nan", "fixed-features=1", "no-such-fault"] {
            #expect(throws: ArgumentProblem.self) { try WireArgument.fault(text) }
        }
    }

    @Test("features, versions, names and whole seconds")
    func protocolValues() throws {
        #expect(try WireArgument.features("BASIC,read_receipt") == [.basic, .readReceipt])
        #expect(try WireArgument.features("0x1F") == .known)
        #expect(try WireArgument.features("none") == [])
        #expect(try WireArgument.version("1.2") == ProtocolVersion(major: 1, minor: 2))
        #expect(try WireArgument.named("message type")("ack") == MessageType.ack)
        #expect(try WireArgument.named("message type")("9") == MessageType(rawValue: 9))
        #expect(try WholeSeconds.parse("2m") == 120)
        for text in ["", "BASIC,", "NOPE", "65536", "-1"] {
            #expect(throws: ArgumentProblem.self) { try WireArgument.features(text) }
        }
        for text in ["", "1", "1.", "1.256", "-1.0", "a.b"] {
            #expect(throws: ArgumentProblem.self) { try WireArgument.version(text) }
        }
        for text in ["1500ms", "0", "4294967296"] {
            #expect(throws: ArgumentProblem.self) { try WholeSeconds.parse(text) }
        }
    }

    @Test("a TLV field says what is wrong with nested JSON, and the help's example of one works")
    func nestedFields() throws {
        let problem = #expect(throws: ArgumentProblem.self) { try WireArgument.field(#"CONTAINER=[{"tag":"TEXT","value":"a"}]"#) }
        #expect("\(problem.map { "\($0)" } ?? "")".contains("nested field TEXT needs one of text, hex, u16, u32 or fields"))
        let field = try WireArgument.field(#"CONTAINER=[{"tag":"TEXT","text":"hi"}]"#)
        #expect(field.tag == .container)
    }

    @Test("a usage error is one line, with long values shortened and the command's help named")
    func usageErrorLine() {
        let long = String(repeating: "x", count: 500)
        let line = UsageErrorLine(message: "The value '\(long)' is invalid for '--pcap <file>': too long\nPlease provide one of the following:\n  - a\n  - b",
                                  arguments: ["conform", "server", "--pcap=\(long)", long])
        #expect(!line.text.contains("\n"))
        #expect(line.text.contains("(500 characters)"))
        #expect(line.text.count < 250)
        #expect(line.text.hasSuffix("a, b (see 'decaf conform server --help')"))
    }
}
