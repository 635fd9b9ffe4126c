import DecafConformance
import DecafDiagnosis
import Synchronization

/// What names the cause of a fuzz finding: the catalogued mistakes whose model, asked the very
/// input, gives the very verdict the target gave (`Verdict.isSame`), so the findings of one
/// campaign are one per defect, not one per symptom. A failure the faultless model gives too is
/// the harness's, never a mistake's; a failure no model gives keeps its own signature
/// (unexplained, never forced on a guess).
///
/// A mistake alone is tried first, then two together, one of them already named: a target with
/// two defects fails some inputs only through both (a container too deep that also repeats a tag,
/// taken by a server that misses both checks). The mistakes named so far are tried before the
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

    /// The mistakes whose model gives `verdict` on `input` (one, or two together), or none.
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
        let partnered = singles.isEmpty ? named.flatMap { first in rest.filter { gives([first, $0], verdict, input) }.map { [first, $0] } } : []
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

    /// One named mistake, or two together, that gives `verdict` on `input`, in catalog order.
    private func among(_ named: [Int], giving verdict: Verdict, for input: Input) -> [Int]? {
        if let single = named.first(where: { gives([$0], verdict, input) }) { return [single] }
        for first in named.sorted() {
            for second in named.sorted() where second > first && gives([first, second], verdict, input) { return [first, second] }
        }
        return nil
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
