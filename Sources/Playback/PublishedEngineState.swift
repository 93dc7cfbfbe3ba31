import Synchronization

/// The engine's state (``EngineState``) as the audio thread publishes it and the interface reads
/// it: a sequence lock. The count is odd while the audio thread writes the fields, and a reader
/// takes them again until it finds the count even and unchanged across its read. The audio thread
/// never waits; a reader waits at most for a few stores. Every field is an atomic of its own, so
/// a read that overlaps a write is only discarded, never a data race.
final class PublishedEngineState: Sendable {
    private let sequence = Atomic<UInt64>(0)
    private let frame = Atomic<Int64>(0)
    private let generation = Atomic<Int>(-1)
    private let hasEnded = Atomic<Bool>(false)
    private let pass = Atomic<Int>(1)
    private let releaseHasFaded = Atomic<Bool>(false)
    private let isHeld = Atomic<Bool>(false)
    private let followedSeek = Atomic<Int>(-1)
    private let lookAheadFrames = Atomic<Int>(0)
    private let renderLoad = Atomic<UInt64>(0.0.bitPattern)

    /// Every field from the same moment.
    func load() -> EngineState {
        while true {
            let before = sequence.load(ordering: .acquiring)
            guard before & 1 == 0 else { continue }
            let state = EngineState(
                position: EnginePosition(
                    frame: frame.load(ordering: .relaxed), generation: generation.load(ordering: .relaxed),
                    hasEnded: hasEnded.load(ordering: .relaxed), pass: pass.load(ordering: .relaxed)),
                releaseHasFaded: releaseHasFaded.load(ordering: .relaxed), isHeld: isHeld.load(ordering: .relaxed),
                followedSeek: followedSeek.load(ordering: .relaxed), lookAheadFrames: lookAheadFrames.load(ordering: .relaxed),
                renderLoad: Double(bitPattern: renderLoad.load(ordering: .relaxed)))
            atomicMemoryFence(ordering: .acquiring)
            if sequence.load(ordering: .relaxed) == before { return state }
        }
    }

    /// The audio thread's side: one writer.
    func store(_ state: EngineState) {
        let count = sequence.load(ordering: .relaxed)
        sequence.store(count &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        frame.store(state.position.frame, ordering: .relaxed)
        generation.store(state.position.generation, ordering: .relaxed)
        hasEnded.store(state.position.hasEnded, ordering: .relaxed)
        pass.store(state.position.pass, ordering: .relaxed)
        releaseHasFaded.store(state.releaseHasFaded, ordering: .relaxed)
        isHeld.store(state.isHeld, ordering: .relaxed)
        followedSeek.store(state.followedSeek, ordering: .relaxed)
        lookAheadFrames.store(state.lookAheadFrames, ordering: .relaxed)
        renderLoad.store(state.renderLoad.bitPattern, ordering: .relaxed)
        sequence.store(count &+ 2, ordering: .releasing)
    }
}
