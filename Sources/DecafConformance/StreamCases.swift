import DecafWire

/// Cases about the byte stream and the frame header that the vectors cannot show: frames split
/// across reads and coalesced into one, the body limit itself, a bad frame after a good one, and
/// the timestamp window.
enum StreamCases {
    static func cases(for profile: ConformanceProfile) -> [ConformanceCase] {
        let data1 = CaseFrames.data(1)
        let data2 = CaseFrames.data(2, "second")
        let data3 = CaseFrames.data(3, "third")
        let dataLength = CaseFrames.bytes(data1.0, data1.1).count
        return [
            ConformanceCase("frame.split.byte-by-byte", [.frame3, .ex1], .required, "a DATA frame written one byte at a time is acknowledged",
                            steps: CaseFrames.acked(data1.0, data1.1, split: CaseFrames.bytewise(dataLength), pause: .milliseconds(2))),
            ConformanceCase("frame.split.mid-header", [.frame3, .ex1], .required, "a DATA frame cut inside its header is acknowledged",
                            steps: CaseFrames.acked(data1.0, data1.1, split: [10], pause: .milliseconds(20))),
            ConformanceCase("frame.split.header-then-body", [.frame3, .ex1], .required, "a DATA frame sent as its header, then its body, is acknowledged",
                            steps: CaseFrames.acked(data1.0, data1.1, split: [FrameHeader.size], pause: .milliseconds(20))),
            ConformanceCase("frame.coalesced.three-frames", [.frame3, .ex1], .required, "three DATA frames in one write are each acknowledged once",
                            steps: [CaseFrames.sendTogether([data1, data2, data3])] + [data1, data2, data3].map { .expect(.ack($0.0.sequence, session: $0.0.sessionID)) }),
            ConformanceCase("frame.coalesced.cut-in-second-header", [.frame3, .ex1], .required,
                            "two DATA frames whose second header is cut across two writes are both acknowledged",
                            steps: [CaseFrames.sendTogether([data1, data2], split: [dataLength + 13], pause: .milliseconds(20))]
                                + [data1, data2].map { .expect(.ack($0.0.sequence, session: $0.0.sessionID)) }),
            ConformanceCase("frame.body-limit.exact", [.frame2, .ex1], .required,
                            "a DATA frame whose body is exactly the body limit (\(profile.bodyLimit) bytes) is acknowledged",
                            steps: CaseFrames.acked(CaseFrames.header(.data, 1), [TLVField(tag: .file, bytes: Array(repeating: 0x5A, count: max(0, profile.bodyLimit - 6)))])),
            ConformanceCase("frame.magic.after-good-frame", [.frame1, .ex5], .required,
                            "a good frame is acknowledged, then bytes that are not a frame are refused with BAD_MAGIC",
                            steps: CaseFrames.acked(data1.0, data1.1) + [
                                .send(Transmission(label: "an HTTP request line", bytes: Array("GET / HTTP/1.1\r\nHost: decaf\r\n\r\n".utf8))),
                                .expect(.fatal(.badMagic, exactCode: true)),
                            ]),
            ConformanceCase("frame.header-only.then-stream-ends", [.frame3, .ex5], .required,
                            "a DATA header whose body never comes, then the end of the stream: the target closes",
                            steps: [
                                .send(Transmission(label: "DATA header of an 11-byte body, no body",
                                                   bytes: Array(CaseFrames.bytes(data1.0, data1.1).prefix(FrameHeader.size)),
                                                   stamps: [Transmission.Stamp(headerOffset: 0)])),
                                .endStream, .expect(.close([.truncatedFrame])),
                            ]),
            ConformanceCase("timestamp.current", [.ts1, .ex1], .required, "a DATA frame stamped with the current time is acknowledged",
                            steps: CaseFrames.acked(data1.0, data1.1)),
            ConformanceCase("timestamp.one-hour-behind", [.ts1], .optional,
                            "a DATA frame an hour old is acknowledged, or refused with TIMESTAMP_OUT_OF_WINDOW",
                            steps: [CaseFrames.send(data1.0, data1.1, skew: -3600), .expect(.ackOrFatal(data1.0.sequence, session: CaseFrames.session, .timestampOutOfWindow))]),
            ConformanceCase("timestamp.one-hour-ahead", [.ts1], .optional,
                            "a DATA frame an hour in the future is acknowledged, or refused with TIMESTAMP_OUT_OF_WINDOW",
                            steps: [CaseFrames.send(data1.0, data1.1, skew: 3600), .expect(.ackOrFatal(data1.0.sequence, session: CaseFrames.session, .timestampOutOfWindow))]),
        ]
    }
}
