import DecafConformance
import DecafDiagnosis
import Synchronization

/// What names the cause of a fuzz finding: the catalogued mistakes whose model, asked the very
/// input, gives the very verdict the target gave (`Verdict.isSame`), so the findings of one
/// campaign are one per defect, not one per symptom. A failure the faultless model gives too is
/// the harness's, never a mistake's; a failure no model gives keeps its own signature
/// (unexplained, never forced on a guess).
///
/// A mistake alone is tried first, then two together, then three, all but one of them already
/// named: a target with two or three defects fails some inputs only through them together (a
/// container too deep that also repeats a tag, taken by a server that misses both checks). The
/// mistakes named so far are tried before the
/// rest of the catalog, so a target whose one defect fails thousands of inputs costs a model or
/// two a failure, and one cause is never named twice under two names; a failure already left
/// unexplained once (by its signature without a cause) is judged again only against what has been
/// named since. Pure but for that memory; the models run in memory.
public final class FindingDiagnosis<Input: Sendable>: Sendable {
    /// The verdict of the reference with `mistakes` planted (none: the reference) on an input.
    public typealias Model = @Sendable (_ input: Input, _ mistakes: [any CataloguedMistake]) -> Verdict

    private let catalog: [any CataloguedMistake]
    private let model: Model
    /// What a campaign has learnt: the indices into the catalog of the mistakes named so far, in
    /// the order they were, and the signatures of failures no model gave (at most
    /// `unexplainedLimit`: a target whose answers vary without end costs models, never memory).
    private let memory = Mutex<(named: [Int], unexplained: Set<String>)>(([], []))
    static var unexplainedLimit: Int { 4096 }

    /// A diagnosis drawing on `catalog`, its mistakes judged by `model`.
    public init(catalog: [any CataloguedMistake], model: @escaping Model) {
        self.catalog = catalog
        self.model = model
    }

    /// The most mistakes one finding is put down to together.
    static var mostTogether: Int { 3 }

    /// The mistakes whose model gives `verdict` on `input` (one, or up to three together), or none.
    /// `signature` is the failure's own, without a cause: what marks it unexplained. Among the
    /// mistakes not yet named, a cause is named only when exactly one gives the verdict: two that
    /// answer alike (a client that ignores a repeated tag and one that keeps every connection on an
    /// error both leave it open) are told apart by other inputs, never guessed from this one.
    public func cause(of verdict: Verdict, for input: Input, signature: String) -> [any CataloguedMistake] {
        guard !model(input, []).isSame(as: verdict) else { return [] }
        let (named, unexplained) = memory.withLock { ($0.named, $0.unexplained.contains(signature)) }
        if let found = among(named, giving: verdict, for: input) { return found.map { catalog[$0] } }
        guard !unexplained else { return [] }
        let rest = catalog.indices.filter { !named.contains($0) }
        let singles = rest.filter { gives([$0], verdict, input) }
        // Beside named ones, one more: the fewest named that explain it with a mistake of the rest.
        var partnered: [[Int]] = []
        for size in 1..<Self.mostTogether where singles.isEmpty && partnered.isEmpty {
            partnered = Self.groups(of: named.sorted(), size: size).flatMap { group in
                rest.filter { gives(group + [$0], verdict, input) }.map { group + [$0] }
            }
        }
        let found = singles.count == 1 ? singles : partnered.count == 1 ? partnered[0] : nil
        memory.withLock { memory in
            if let found {
                memory.named += found.filter { !memory.named.contains($0) }
            } else if memory.unexplained.count < Self.unexplainedLimit {
                memory.unexplained.insert(signature)
            }
        }
        return (found ?? []).sorted().map { catalog[$0] }
    }

    /// The mistakes named so far in the campaign that give `verdict` on `input`: for a finding
    /// left unexplained when it was found, once a later one has named its cause.
    public func namedCause(of verdict: Verdict, for input: Input) -> [any CataloguedMistake] {
        guard !model(input, []).isSame(as: verdict) else { return [] }
        return (among(memory.withLock { $0.named }, giving: verdict, for: input) ?? []).map { catalog[$0] }
    }

    /// One named mistake (in the order named), or two or three together (in catalog order), that
    /// gives `verdict` on `input`.
    private func among(_ named: [Int], giving verdict: Verdict, for input: Input) -> [Int]? {
        if let single = named.first(where: { gives([$0], verdict, input) }) { return [single] }
        for size in 2...Self.mostTogether {
            if let group = Self.groups(of: named.sorted(), size: size).first(where: { gives($0, verdict, input) }) { return group }
        }
        return nil
    }

    /// Every choice of `size` of `indices`, each in their order.
    static func groups(of indices: [Int], size: Int) -> [[Int]] {
        guard size > 0 else { return [[]] }
        guard indices.count >= size else { return [] }
        return indices.indices.flatMap { position in
            groups(of: Array(indices[(position + 1)...]), size: size - 1).map { [indices[position]] + $0 }
        }
    }

    private func gives(_ indices: [Int], _ verdict: Verdict, _ input: Input) -> Bool {
        model(input, indices.map { catalog[$0] }).isSame(as: verdict)
    }

    /// Takes the mistakes `signature` names as named already: a replay judges a finding as the
    /// campaign that made it did, by then knowing its cause.
    public func recall(_ signature: String) {
        let indices = FuzzFinding.defectNames(in: signature).compactMap { name in catalog.firstIndex { $0.name == name } }
        memory.withLock { memory in memory.named += indices.filter { !memory.named.contains($0) } }
    }

    /// The catalogued mistakes a finding's signature names (`FuzzFinding.signature(of:)`), if any.
    public func mistakes(in signature: String) -> [any CataloguedMistake] {
        FuzzFinding.defectNames(in: signature).compactMap { name in catalog.first { $0.name == name } }
    }
}
