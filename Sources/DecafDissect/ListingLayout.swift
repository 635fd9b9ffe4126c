/// How a listing places each frame: a capture's by capture time, connection, direction and the
/// packets that carried it; a stream's (hex, or a file of frames) by its offset in the stream.
public enum ListingLayout: Sendable {
    case capture
    case stream
}
