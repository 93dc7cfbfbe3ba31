import Synchronization

/// The ``Performance`` a synthesizer and its sequencer play with now, set by an interface at any
/// time and read by the thread that renders without a lock or an allocation: a change is heard
/// from the next buffer.
public final class LivePerformance: Sendable {
    private let transpose = Atomic<Int>(0)
    private let tempoBits = Atomic<UInt64>(1.0.bitPattern)
    private let muted = Atomic<UInt16>(0)
    private let soloed = Atomic<UInt16>(0)
    /// Counts changes, so that the renderer acts on one (releases notes of a channel muted) once.
    private let changes = Atomic<Int>(0)

    public init() {}

    public var current: Performance {
        get {
            Performance(
                transpose: transpose.load(ordering: .relaxed), tempo: tempo,
                muted: ChannelSet(bits: muted.load(ordering: .relaxed)), soloed: ChannelSet(bits: soloed.load(ordering: .relaxed)))
        }
        set {
            transpose.store(
                min(max(newValue.transpose, Performance.transposeRange.lowerBound), Performance.transposeRange.upperBound), ordering: .relaxed)
            tempoBits.store(
                min(max(newValue.tempo, Performance.tempoRange.lowerBound), Performance.tempoRange.upperBound).bitPattern, ordering: .relaxed)
            muted.store(newValue.muted.bits, ordering: .relaxed)
            soloed.store(newValue.soloed.bits, ordering: .relaxed)
            changes.add(1, ordering: .releasing)
        }
    }

    /// The listener's tempo now, read alone.
    public var tempo: Double { Double(bitPattern: tempoBits.load(ordering: .relaxed)) }

    /// The number of changes so far: a renderer compares it with the last it acted on.
    var changeCount: Int { changes.load(ordering: .acquiring) }
}
