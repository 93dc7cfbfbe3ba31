import WorkerThreads

/// A ``LoudnessMeter`` on a thread of its own, so that measuring costs the render thread only a
/// copy of each block: the render goes on while the meter works, on time no other thread wants
/// (``IdlePriority``): in the gaps where a split song's parts wait for one another, or while the
/// render waits for a free slot.
///
/// The blocks go through a ring of slots: ``add(_:)`` waits only when every slot is still to be
/// measured (the meter is that far behind), so memory stays bounded. One thread adds, then calls
/// ``finish()``, which waits for the meter to catch up; a meter let go without it ends its thread.
public final class LoudnessMeterThread {
    private let ring: MeterRing
    private var thread: WorkerThreads.StartedThread?
    private var next = 0
    private var result: Loudness?

    /// Nil when the meter or its thread cannot be made. `blockFrames`: the most frames one slot
    /// holds (larger blocks are split).
    public init?(sampleRate: Int, measuresTruePeak: Bool, blockFrames: Int = 4096) {
        guard let meter = LoudnessMeter(sampleRate: sampleRate, measuresTruePeak: measuresTruePeak) else { return nil }
        let ring = MeterRing(meter: meter, slotSamples: 2 * max(1, blockFrames))
        guard
            let thread = WorkerThreads.start({
                IdlePriority.enterForThisThread()
                ring.measure()
            })
        else { return nil }
        self.ring = ring
        self.thread = thread
    }

    deinit {
        _ = finish()
    }

    /// Takes interleaved stereo samples: copied, then measured on the meter's thread.
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        precondition(thread != nil, "samples added after finish()")
        var offset = 0
        while offset + 1 < samples.count {
            let count = min(ring.slotSamples, (samples.count - offset) & ~1)
            ring.fill(slot: next % MeterRing.slotCount, from: samples.baseAddress! + offset, count: count)
            next += 1
            offset += count
        }
    }

    /// Waits for the meter to measure everything added, and returns what it measured (nil for
    /// silence). Once called, nothing more can be added; calling it again returns the same.
    public func finish() -> Loudness? {
        guard let thread else { return result }
        ring.end(slot: next % MeterRing.slotCount)
        thread.join()
        self.thread = nil
        result = ring.meter.measurement
        return result
    }
}

/// The slots between the adding thread and the meter's.
private final class MeterRing: @unchecked Sendable {
    // @unchecked: a slot is written by the adding thread only after `free` gave it, and read by
    // the meter's thread only after `filled` gave it: the semaphores order the two. `meter` is
    // used by the meter's thread until it ends, and by others only after the join.
    static let slotCount = 8
    let slotSamples: Int
    let meter: LoudnessMeter
    private let slots: UnsafeMutablePointer<Float>
    /// The samples in each slot; −1 marks the end.
    private let counts: UnsafeMutablePointer<Int>
    private let free = CountingSemaphore(count: UInt32(MeterRing.slotCount))
    private let filled = CountingSemaphore()

    init(meter: LoudnessMeter, slotSamples: Int) {
        self.meter = meter
        self.slotSamples = slotSamples
        slots = .allocate(capacity: Self.slotCount * slotSamples)
        counts = .allocate(capacity: Self.slotCount)
        counts.initialize(repeating: 0, count: Self.slotCount)
    }

    deinit {
        slots.deallocate()
        counts.deallocate()
    }

    func fill(slot: Int, from samples: UnsafePointer<Float>, count: Int) {
        free.wait()
        (slots + slot * slotSamples).update(from: samples, count: count)
        counts[slot] = count
        filled.post()
    }

    func end(slot: Int) {
        free.wait()
        counts[slot] = -1
        filled.post()
    }

    /// The meter's thread: measures each slot as it fills, until the end mark.
    func measure() {
        var slot = 0
        while true {
            filled.wait()
            let count = counts[slot]
            if count < 0 { return }
            meter.add(UnsafeBufferPointer(start: slots + slot * slotSamples, count: count))
            free.post()
            slot = (slot + 1) % Self.slotCount
        }
    }
}
