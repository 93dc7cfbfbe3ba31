import Synthesis
import WorkerThreads

/// One song rendered by several synthesizers at once, each playing some of its keys
/// (``NoteSplit``) on a thread of its own, their blocks summed in order for the output.
///
/// Threads: each part's thread renders its blocks ahead, up to ``depth`` blocks, into a ring of
/// its own; the caller's thread waits for block k of every part, sums them and hands the sum on
/// (limiter, file). A part's thread writes only ring slots the caller is not reading (at most
/// `depth` - 1 blocks ahead of it), and every count is read and written under one lock. Rendering
/// ahead evens out parts whose load varies block to block.
final class SplitRendering {
    /// Blocks a part may render ahead of the sum: 16 blocks of 4,096 frames, 1.5 s at 44.1 kHz.
    static let depth = 16

    private let parts: [Sequencer]
    private let blockFrames: Int
    private let tailFrames: Int
    private let condition = ThreadCondition()
    /// Each part's ring of `depth` blocks of stereo frames.
    private let rings: [UnsafeMutableBufferPointer<Float>]
    /// What each block in each ring holds, by part and slot.
    private var blocks: [[RenderBlock?]]
    /// Blocks each part has rendered; a part at its end has rendered all it will.
    private var produced: [Int]
    private var isAtEnd: [Bool]
    /// Blocks summed.
    private var consumed = 0
    /// The sum is no longer wanted: parts stop at their next block.
    private var isStopped = false

    init(parts: [Sequencer], blockFrames: Int, tailFrames: Int) {
        self.parts = parts
        self.blockFrames = blockFrames
        self.tailFrames = tailFrames
        rings = parts.map { _ in .allocate(capacity: Self.depth * blockFrames * 2) }
        blocks = parts.map { _ in [RenderBlock?](repeating: nil, count: Self.depth) }
        produced = parts.map { _ in 0 }
        isAtEnd = parts.map { _ in false }
    }

    deinit {
        for ring in rings { ring.deallocate() }
    }

    /// Runs every part on a thread of its own and `consume` on the caller's, which takes the
    /// summed blocks with the function it is given (nil once the song and its tail are over) and
    /// may stop taking them at any time. Returns nil, having rendered nothing, when the threads
    /// cannot be made.
    func run<Result, Failure: Error>(_ consume: (_ next: (UnsafeMutablePointer<Float>) -> RenderBlock?) throws(Failure) -> Result)
        throws(Failure) -> Result? {
        var outcome: Result?
        var failure: Failure?
        let started = WorkerThreads.runTogether(count: parts.count + 1) { worker in
            if worker == 0 {
                do throws(Failure) {
                    outcome = try consume(nextSum(into:))
                } catch {
                    failure = error
                }
                stop()
            } else {
                produce(part: worker - 1)
            }
        }
        if let failure { throw failure }
        return started ? outcome : nil
    }

    private func produce(part: Int) {
        var schedule = RenderBlocks(sequencer: parts[part], blockFrames: blockFrames, tailFrames: tailFrames)
        while true {
            let slot: Int? = condition.withLock {
                while !isStopped, produced[part] - consumed >= Self.depth { condition.wait() }
                return isStopped ? nil : produced[part] % Self.depth
            }
            guard let slot else { return }
            let block = schedule.render(into: rings[part].baseAddress! + slot * blockFrames * 2)
            condition.withLock {
                if let block {
                    blocks[part][slot] = block
                    produced[part] += 1
                } else {
                    isAtEnd[part] = true
                }
                condition.broadcast()
            }
            if block == nil { return }
        }
    }

    /// Waits for the next block of every part and writes their sum into `buffer`; nil once a
    /// part is at its end (they all end together).
    private func nextSum(into buffer: UnsafeMutablePointer<Float>) -> RenderBlock? {
        let ready: RenderBlock? = condition.withLock {
            while parts.indices.contains(where: { produced[$0] == consumed && !isAtEnd[$0] }) { condition.wait() }
            guard parts.indices.allSatisfy({ produced[$0] > consumed }) else { return nil }
            return blocks[0][consumed % Self.depth]
        }
        guard let ready else { return nil }
        let offset = (consumed % Self.depth) * blockFrames * 2
        let count = ready.frames * 2
        buffer.update(from: rings[0].baseAddress! + offset, count: count)
        for ring in rings.dropFirst() {
            let part = ring.baseAddress! + offset
            for index in 0..<count { buffer[index] += part[index] }
        }
        condition.withLock {
            consumed += 1
            condition.broadcast()
        }
        return ready
    }

    private func stop() {
        condition.withLock {
            isStopped = true
            condition.broadcast()
        }
    }
}
