import DecafSession

/// What a proxy has carried, per direction, since it started.
public struct ProxyCounts: Hashable, Sendable, Encodable {
    /// Bytes read from the sending side and bytes written to the receiving side.
    public struct Direction: Hashable, Sendable, Encodable {
        public var bytesIn = 0
        public var bytesOut = 0
        /// What the toxics on frames did.
        public var frames = ToxicPipe.FrameCounts()
    }

    public var connections = 0
    /// Connections whose upstream could not be reached.
    public var upstreamFailures = 0
    /// Connections reset as soon as they came, because the network was down.
    public var refused = 0
    /// Connections a toxic, a timeline or the control API closed or reset.
    public var cut = 0
    public var upstream = Direction()
    public var downstream = Direction()
}
