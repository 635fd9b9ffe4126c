/// How the mutator picks what kind of edit to make, weighted by what has paid off (a new edge or
/// count of an instrumented target), as AFL++'s MOpt weights its operators. (A new kind of answer
/// is too weak a signal: a target gives a few dozen, nearly all in its first minute, and weighed
/// by them the decoder fuzzer found its planted defects no more often.) Each kind keeps the inputs it took part in and those that paid; its
/// weight is its base share scaled by its payoff rate against the mean, held between a quarter
/// and four times the base, so no kind is starved and none takes over. Before any payoff the
/// weights are the base shares, and a draw picks what the unweighted mutator picked.
///
/// The weights change only every `epoch` inputs, from what the inputs of the epoch before the last
/// paid: input N is drawn with the payoffs of the inputs up to `epoch * (floor((N - 1) / epoch) - 1)`.
/// A campaign asks `jobs` inputs at once and hears of them only after, so with fewer than `epoch`
/// jobs every payoff an input is drawn with is known when it is drawn, and the same seed gives the
/// same inputs whatever `jobs` is. Pure.
struct MutationPayoff: Sendable {
    /// The kinds of edit `FrameMutator` chooses among for each mutation.
    enum Kind: Int, CaseIterable, Sendable {
        case header, fields, compression, bytes

        /// The share of mutations each kind gets before anything paid, in tenths.
        var base: Int {
            switch self {
            case .header: 2
            case .fields: 4
            case .compression: 1
            case .bytes: 3
            }
        }

        /// The kind of `mutation`: an edit inside a compressed body is the kind of its edit.
        init?(_ mutation: FrameMutation) {
            switch mutation {
            case .headerField: self = .header
            case .insertedField, .deletedField, .duplicatedField, .swappedFields, .nestedDeeper, .emptiedField, .splicedField, .lyingLength, .value:
                self = .fields
            case .compressedBody, .compressionBomb, .corruptedZlibStream: self = .compression
            case .flippedBit, .setByte, .insertedBytes, .deletedBytes, .truncated: self = .bytes
            case let .insideCompressedBody(inner): self.init(inner)
            case .repaired: return nil
            }
        }
    }

    /// The inputs between two changes of the weights.
    static let epoch = 256

    private var tries = [Int](repeating: 0, count: Kind.allCases.count)
    private var payoffs = [Int](repeating: 0, count: Kind.allCases.count)
    /// Payoffs heard of and not yet weighed: input number, its kinds, whether it paid; in order.
    private var pending: [(number: Int, kinds: Set<Kind>, paid: Bool)] = []
    /// Each kind's weight: its base share in hundredths, scaled.
    private(set) var weights = Kind.allCases.map { $0.base * 100 }

    /// Weighs what the inputs drawn before input `number` may be drawn with, once per epoch.
    mutating func prepare(for number: Int) {
        let known = Self.epoch * ((number - 1) / Self.epoch - 1)
        guard let first = pending.first, first.number <= known else { return }
        while let next = pending.first, next.number <= known {
            pending.removeFirst()
            for kind in next.kinds {
                tries[kind.rawValue] += 1
                if next.paid { payoffs[kind.rawValue] += 1 }
            }
        }
        // Rates smoothed towards one payoff in twenty tries, so a kind tried twice is not judged on it.
        let rates = Kind.allCases.map { Double(payoffs[$0.rawValue] + 1) / Double(tries[$0.rawValue] + 20) }
        let mean = rates.reduce(0, +) / Double(rates.count)
        weights = Kind.allCases.map { kind in
            let scale = min(4, max(0.25, rates[kind.rawValue] / mean))
            return Int((Double(kind.base * 100) * scale).rounded())
        }
    }

    /// The kind a draw from `random` picks, in proportion to the weights.
    func pick(using random: inout some RandomNumberGenerator) -> Kind {
        var draw = Int.random(in: 0..<weights.reduce(0, +), using: &random)
        for kind in Kind.allCases {
            if draw < weights[kind.rawValue] { return kind }
            draw -= weights[kind.rawValue]
        }
        return .bytes
    }

    /// Notes that input `number`, made with `mutations`, paid off or not: weighed at the epoch's
    /// turn (`prepare(for:)`). Inputs are told in the order they were drawn; what waits is at most
    /// two epochs' worth plus the jobs.
    mutating func record(_ mutations: [FrameMutation], paid: Bool, number: Int) {
        let kinds = Set(mutations.compactMap(Kind.init))
        guard !kinds.isEmpty else { return }
        pending.append((number, kinds, paid))
    }
}
