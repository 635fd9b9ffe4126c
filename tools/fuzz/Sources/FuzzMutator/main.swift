import DecafWire

// The fuzzer's own core, fuzzed: its pure files (mutator, repair, the brief's answer, the
// minimizer's steps) are the main package's, linked here, so this target builds without NIO.

/// libFuzzer entry: the first byte seeds the mutator and says which rounds paid off, the rest is a
/// corpus frame (and the dictionary's). Whatever the frame, mutating never traps; a mutant that says it was repaired has a body_length and checksum
/// that hold; the brief answers for every mutant; every step the minimizer may take from a
/// mutant's TLV tree encodes shorter than the tree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMutator(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    let frame = Array(input.dropFirst())
    // A small body limit keeps the bombs small.
    let options = DecodeOptions(bodyLimit: 4096)
    // The frame is the dictionary's corpus too; the rounds fall in epochs of their own, each told
    // it paid off or not by a bit of the first byte, so the weights change between them.
    var mutator = FrameMutator(seed: UInt64(control), options: options, corpus: [frame])
    for round in 0..<4 {
        let number = round * 2 * MutationPayoff.epoch + 1
        let (bytes, mutations) = mutator.mutate(frame, donor: frame, number: number)
        mutator.record(mutations, paid: control & (1 << round) != 0, number: number)
        if mutations.last == .repaired { precondition(FrameRepair.repaired(bytes) == bytes, "a repaired mutant does not hold") }
        _ = DecodeOutcome(of: bytes, options: options).description
        _ = mutations.map(\.description)
        if let fields = FrameMutator.fields(of: bytes) {
            let length = TLVEncoder.encode(fields).count
            for smaller in Minimizer.smaller(fields) {
                precondition(TLVEncoder.encode(smaller).count < length, "a minimizing step did not shrink the tree")
            }
        }
    }
    return 0
}
