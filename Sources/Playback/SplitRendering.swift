import Synthesis
import WorkerThreads

/// One song rendered by several synthesizers at once, each playing some of its keys
/// (``NoteSplit``) on a thread of its own, their blocks summed in order for the output.
///
/// Threads: each part's thread renders its blocks ahead, up to ``depth`` blocks, into a ring of
/// its own; the caller's thread waits for block k of every part, sums them and hands the sum on
/// (limiter, file). A part's thread writes only ring slots the caller is not reading (at most
/// `depth` - 1 blocks ahead of it), and every count is read and written under one lock. Rendering
/// ahead evens out parts whose load varies block to block. Every part but the first is made on
/// its own thread (``PartMaker``): its synthesizer loads while the first part renders ahead.
final class SplitRendering: @unchecked Sendable {
    // @unchecked: every `var` is read and written under `condition`, which it owns; a ring's slot
    // is written by its part only while the counts under that lock say the caller is not reading it.
    /// Blocks a part may render ahead of the sum: 16 blocks of 4,096 frames, 1.5 s at 44.1 kHz.
    static let depth = 16

    /// Makes the sequencer of a part (from 1), on that part's thread.
    typealias PartMaker = @Sendable (_ part: Int) throws(RenderError) -> Sequencer

    private let makePart: PartMaker
    private let blockFrames: Int
    private let tailFrames: Int
    private let condition = ThreadCondition()
    /// Each part's sequencer, once made.
    private var parts: [Sequencer?]
    /// Each part's ring of `depth` blocks of stereo frames.
    private let rings: [UnsafeMutableBufferPointer<Float>]
    /// What each block in each ring holds, by part and slot.
    private var blocks: [[RenderBlock?]]
    /// Blocks each part has rendered; a part at its end has rendered all it will.
    private var produced: [Int]
    private var isAtEnd: [Bool]
    /// Blocks summed.
    private var consumed = 0
    /// The sum is no longer wanted, or cannot be made: parts stop at their next block.
    private var isStopped = false
    /// Why a part could not be made; the sum ends where it was.
    private var partFailure: RenderError?

    init(first: Sequencer, partCount: Int, blockFrames: Int, tailFrames: Int, makePart: @escaping PartMaker) {
        self.makePart = makePart
        self.blockFrames = blockFrames
        self.tailFrames = tailFrames
        parts = [first] + [Sequencer?](repeating: nil, count: partCount - 1)
        rings = (0..<partCount).map { _ in .allocate(capacity: Self.depth * blockFrames * 2) }
        blocks = (0..<partCount).map { _ in [RenderBlock?](repeating: nil, count: Self.depth) }
        produced = [Int](repeating: 0, count: partCount)
        isAtEnd = [Bool](repeating: false, count: partCount)
    }

    deinit {
        for ring in rings { ring.deallocate() }
    }

    /// The parts' sequencers made so far: all of them after a ``run(_:)`` that did not fail.
    var madeParts: [Sequencer] { condition.withLock { parts.compactMap { $0 } } }

    /// Runs every part on a thread of its own and `consume` on the caller's, which takes the
    /// summed blocks with the function it is given (nil once the song and its tail are over) and
    /// may stop taking them at any time. Returns nil, having rendered nothing, when the threads
    /// cannot be made; throws when a part cannot be made, once `consume` has returned.
    func run<Result>(_ consume: (_ next: (UnsafeMutablePointer<Float>) -> RenderBlock?) throws(RenderError) -> Result)
        throws(RenderError) -> Result?
    {
        var outcome: Result?
        var failure: RenderError?
        let started = WorkerThreads.runTogether(
            helpers: parts.count, { [self] part in produce(part: part) },
            alongside: {
                do throws(RenderError) {
                    outcome = try consume(nextSum(into:))
                } catch {
                    failure = error
                }
                stop()
            })
        if let failure = condition.withLock({ partFailure }) ?? failure { throw failure }
        return started ? outcome : nil
    }

    private func produce(part: Int) {
        guard let sequencer = sequencer(of: part) else { return }
        var schedule = RenderBlocks(sequencer: sequencer, blockFrames: blockFrames, tailFrames: tailFrames)
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

    /// The part's sequencer, made here unless it was given; nil, with the sum stopped, when it cannot be made.
    private func sequencer(of part: Int) -> Sequencer? {
        if let given = condition.withLock({ parts[part] }) { return given }
        do throws(RenderError) {
            let made = try makePart(part)
            condition.withLock { parts[part] = made }
            return made
        } catch {
            condition.withLock {
                if partFailure == nil { partFailure = error }
                isStopped = true
                condition.broadcast()
            }
            return nil
        }
    }

    /// Waits for the next block of every part and writes their sum into `buffer`; nil once a
    /// part is at its end (they all end together), or the sum has stopped.
    private func nextSum(into buffer: UnsafeMutablePointer<Float>) -> RenderBlock? {
        let ready: RenderBlock? = condition.withLock {
            while !isStopped, produced.indices.contains(where: { produced[$0] == consumed && !isAtEnd[$0] }) { condition.wait() }
            guard !isStopped, produced.allSatisfy({ $0 > consumed }) else { return nil }
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
