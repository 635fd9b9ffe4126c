/// What a listing shows of each frame: a summary line, the full tree (-V), or a JSON line.
public enum ListingStyle: Sendable {
    case summary
    case tree
    case json
}
