import Synchronization

/// A fixed ring of slots through which one thread hands values to one other thread, in order,
/// without a lock, a wait or an allocation after it is made: how the interface and the audio
/// thread hand each other commands and what the audio thread is done with.
///
/// Ownership moves with a value: the producer gives it up when `push` takes it, the consumer
/// takes it with `pop`. A full ring refuses a value (the producer decides what to do with it: the
/// audio thread is never the producer of a ring that can fill, see ``PlaybackEngine``).
final class SingleProducerRing<Element: Sendable>: @unchecked Sendable {
    // @unchecked: a slot is written only by the producer before it publishes `tail` (releasing),
    // and read only by the consumer after it loads `tail` (acquiring) and before it publishes
    // `head`; the two counters order every slot's hand-over. One producer and one consumer at a
    // time: checked in debug builds.
    private let slots: UnsafeMutablePointer<Element?>
    let capacity: Int
    /// Values taken by the consumer, and values pushed by the producer, since the start.
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)
    /// Values written by the producer, `tail` and those staged beyond it; the producer's alone.
    private let staged = Atomic<Int>(0)
    private let producing = Atomic<Bool>(false)
    private let consuming = Atomic<Bool>(false)

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// How many values wait; exact for the producer and the consumer (the other side only adds
    /// to what the producer sees as free, and to what the consumer sees waiting).
    var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }

    /// Hands `value` to the consumer; false (and `value` kept by the caller) when the ring is full.
    func push(_ value: Element) -> Bool {
        guard stage(value) else { return false }
        publishStaged()
        return true
    }

    /// Writes `value` into the ring without handing it over yet: the consumer sees what was staged
    /// once `publishStaged()` runs. False (and `value` kept by the caller) when the ring is full.
    /// For a producer that must have let go of every other reference to a value before the
    /// consumer may free it: the audio thread stages what it retires, and publishes once its
    /// own copies are gone.
    func stage(_ value: Element) -> Bool {
        assert(!producing.exchange(true, ordering: .acquiring), "two threads push into one single-producer ring")
        defer { assert(producing.exchange(false, ordering: .releasing)) }
        let end = staged.load(ordering: .relaxed)
        guard end - head.load(ordering: .acquiring) < capacity else { return false }
        slots[end % capacity] = value
        staged.store(end + 1, ordering: .relaxed)
        return true
    }

    /// Hands over everything staged.
    func publishStaged() {
        tail.store(staged.load(ordering: .relaxed), ordering: .releasing)
    }

    /// The oldest value waiting, taken out of the ring; nil when none waits.
    func pop() -> Element? {
        assert(!consuming.exchange(true, ordering: .acquiring), "two threads pop from one single-consumer ring")
        defer { assert(consuming.exchange(false, ordering: .releasing)) }
        let start = head.load(ordering: .relaxed)
        guard start != tail.load(ordering: .acquiring) else { return nil }
        let value = slots[start % capacity].take()
        head.store(start + 1, ordering: .releasing)
        return value
    }
}
