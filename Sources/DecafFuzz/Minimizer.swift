import DecafWire

/// Shrinks an input while the same oracle still fires, so a finding is the smallest thing that
/// shows the fault: fewest frames, then the smallest TLV tree (fields removed, values emptied and
/// halved, containers unwrapped), then fewest bytes (delta debugging, as libFuzzer's
/// `-minimize_crash` and Zeller's ddmin do). Frames whose body_length and checksum held keep them
/// holding after each cut, so the input still reaches the parser.
public enum Minimizer {
    /// The smallest subsequence of `input` found for which `stillFires` holds (ddmin: removes ever
    /// smaller chunks until no single element can go). `stillFires(input)` is assumed.
    public static func minimize<Element>(_ input: [Element], stillFires: ([Element]) async -> Bool) async -> [Element] {
        var current = input
        var chunks = 2
        while current.count >= 2 {
            let size = (current.count + chunks - 1) / chunks
            var removed = false
            var start = 0
            while start < current.count {
                let candidate = Array(current[..<start] + current[min(current.count, start + size)...])
                if !candidate.isEmpty, await stillFires(candidate) {
                    current = candidate
                    removed = true
                    chunks = max(chunks - 1, 2)
                    break
                }
                start += size
            }
            if !removed {
                guard size > 1 else { break }
                chunks = min(current.count, chunks * 2)
            }
        }
        if current.count == 1, await stillFires([]) { return [] }
        return current
    }

    /// `frames` shrunk: fewest frames, then each frame's TLV tree, then each frame's bytes.
    public static func minimizeFrames(_ frames: [[UInt8]], stillFires: ([[UInt8]]) async -> Bool) async -> [[UInt8]] {
        var current = await minimize(frames, stillFires: stillFires)
        for index in current.indices {
            let repairs = holds(current[index])
            func replaced(_ frame: [UInt8]) -> [[UInt8]] {
                var candidate = current
                candidate[index] = repairs ? FrameRepair.repaired(frame) : frame
                return candidate
            }
            current[index] = await minimizeTree(current[index], repairs: repairs) { await stillFires(replaced($0)) }
            let header = Array(current[index].prefix(FrameHeader.size))
            let body = Array(current[index].dropFirst(FrameHeader.size))
            let shortest = await minimize(body) { await stillFires(replaced(header + $0)) }
            if await stillFires(replaced(header + shortest)) { current = replaced(header + shortest) }
        }
        return current
    }

    /// Whether `frame`'s body_length and checksum agree with its body.
    static func holds(_ frame: [UInt8]) -> Bool {
        frame.count >= FrameHeader.size && FrameRepair.repaired(frame) == frame
    }

    /// Removes TLV fields one at a time (depth first), then empties, halves and unwraps what is
    /// left, while `stillFires` holds.
    private static func minimizeTree(_ frame: [UInt8], repairs: Bool, stillFires: ([UInt8]) async -> Bool) async -> [UInt8] {
        guard var fields = FrameMutator.fields(of: frame) else { return frame }
        let header = Array(frame.prefix(FrameHeader.size))
        func bytes(_ fields: [TLVField]) -> [UInt8] {
            let candidate = header + TLVEncoder.encode(fields)
            return repairs ? FrameRepair.repaired(candidate) : candidate
        }
        var shrunk = true
        while shrunk {
            shrunk = false
            for candidate in smaller(fields) where await stillFires(bytes(candidate)) {
                fields = candidate
                shrunk = true
                break
            }
        }
        return bytes(fields)
    }

    /// Every tree one step smaller than `fields`: a field removed, a value emptied or halved, a
    /// container replaced by its children; nested fields too.
    static func smaller(_ fields: [TLVField]) -> [[TLVField]] {
        var candidates: [[TLVField]] = []
        for index in fields.indices {
            var removed = fields
            removed.remove(at: index)
            candidates.append(removed)
            switch fields[index].content {
            case let .bytes(value) where !value.isEmpty:
                for shorter in [[UInt8](), Array(value.prefix(value.count / 2))] {
                    var edited = fields
                    edited[index].content = .bytes(shorter)
                    candidates.append(edited)
                }
            case let .fields(children):
                var unwrapped = fields
                unwrapped.replaceSubrange(index...index, with: children)
                candidates.append(unwrapped)
                for child in smaller(children) {
                    var edited = fields
                    edited[index].content = .fields(child)
                    candidates.append(edited)
                }
            default:
                break
            }
        }
        return candidates
    }
}
