import Synchronization
import Synthesis
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The audio thread's side of the player: it renders whatever song is loaded
/// and takes commands from the interface without ever waiting for it.
///
/// The interface posts commands under a lock that the audio thread only
/// tries: if the lock is busy, the commands wait for the next buffer. The
/// interface keeps a reference to every sequencer and seek plan it hands over
/// until the audio thread is done with it (see ``position`` and
/// ``finishedSeek``), so nothing is freed on the audio thread.
final class PlaybackEngine: @unchecked Sendable {
    // A song posted here is used by the audio thread alone from then on.
    enum Command: @unchecked Sendable {
        /// Play this song now, from its start; with `fadeOut`, once what plays has faded out.
        case load(PlayingSong, generation: Int, fadeOut: Bool)
        /// Play this song as soon as the current one (and its tail) has ended.
        case queueNext(PlayingSong, generation: Int)
        /// Forget the song queued to follow: the queue changed under it (its repeat mode).
        case dropNext
        /// Follow a seek planned for the song of `generation` (dropped if another song plays by
        /// then); with `fadeOut`, once what plays has faded out. Seeks are numbered in the order
        /// they are posted.
        case seek(SeekPlan, generation: Int, number: Int, fadeOut: Bool)
        /// Go on with the song of `generation` played as `song` (the same song split across more
        /// synthesizers), from the plan's place: a seek, numbered with the seeks, that changes
        /// what renders the song. A plan ahead of what is heard waits until the song gets there
        /// (its fade-out ending there), so that nothing is heard twice or skipped.
        case replace(PlayingSong, plan: SeekPlan, generation: Int, number: Int, fadeOut: Bool)
        /// Release every note (before stopping).
        case releaseAll
        /// Pause: fade out, then stand still (the song does not move on, and the voices keep
        /// their place), rendering silence.
        case hold
        /// Go on after `hold`, fading back in: a voice taken up mid-waveform would click.
        case proceed

        /// Whether it waits for the sound to fade out first.
        var fadesOut: Bool {
            switch self {
            case .load(_, _, let fadeOut), .seek(_, _, _, let fadeOut), .replace(_, _, _, _, let fadeOut): fadeOut
            case .hold: true
            case .queueNext, .dropNext, .releaseAll, .proceed: false
            }
        }
    }

    /// How long the sound fades out before a seek or a skip that is not flushed: cutting voices
    /// mid-waveform clicks; 256 frames (about 5 ms) do not.
    static let fadeFrames = 256

    /// Commands waiting for the audio thread, and how many have been posted in all.
    private let commands = Mutex<(pending: [Command], posted: Int)>(([], 0))
    /// `commands.posted`, readable without the lock: the audio thread takes the lock only when
    /// something is waiting (it nearly never is).
    private let postedCount = Atomic<Int>(0)
    private let tailLimitFrames: Int64
    /// Keeps the output's peaks at or below −1 dBFS; nil when turned off. Its delay line is
    /// emptied at every cut (a load, a seek, a split's switch), so that nothing from before a cut
    /// is heard after it, and filled again with the first 5 ms after the cut before anything
    /// more comes out (`primeLimiter`); a pause keeps it, and goes on from it.
    private let limiter: PeakLimiter?
    /// Where the frames that fill the limiter's delay line are rendered: its latency's worth.
    private let limiterPrimer: UnsafeMutablePointer<Float>
    private let publishedLookAheadFrames = Atomic<Int>(0)

    // Touched only by the audio thread.
    /// The limiter's delay line holds nothing since the last cut (or since the start): the next
    /// song frames rendered fill it first.
    private var limiterIsEmpty = true
    private var current: PlayingSong?
    private var currentGeneration = -1
    /// What `position` says, as the audio thread keeps it.
    private var playedPosition = EnginePosition()
    /// The song and its tail have ended (or its notes were released).
    private var hasEnded: Bool { playedPosition.hasEnded }
    private var upcoming: (song: PlayingSong, generation: Int)?
    private var tailFrames: Int64 = 0
    /// After `releaseAll`: the synthesizers play out their releases, and no event is sent.
    private var releasing: PlayingSong?
    /// A seek or load waiting for the fade-out under way to end.
    private var afterFade: Command?
    /// A `replace` of the current song planned ahead of what is heard, waiting until the song
    /// gets to the plan's frame. Until it is taken, no seek from it on is published as finished:
    /// the interface keeps its plan and the song it replaces.
    private var scheduledReplace: (song: PlayingSong, plan: SeekPlan, number: Int, fadeOut: Bool)?
    private var fadeRemaining = 0
    /// Paused by `hold`.
    private var isHolding = false
    /// Frames of the fade-in after `proceed` still to come.
    private var fadeInRemaining = 0
    /// The number of the last seek followed or dropped.
    private var lastFinishedSeek = -1
    /// How many commands the audio thread has taken off the queue.
    private var takenCount = 0
    /// Time spent rendering (in nanoseconds), and frames rendered, since the render load was last
    /// published.
    private var renderNanoseconds: Int64 = 0
    private var framesTimed = 0
    private let sampleRate: Double

    // Published by the audio thread for the interface.
    /// The position (``EnginePosition``), written as a sequence lock: the count is odd while the
    /// audio thread writes the four fields, and a reader takes them again until it finds the
    /// count even and unchanged across its read. The audio thread never waits; the interface
    /// waits at most for four stores.
    private let positionSequence = Atomic<UInt64>(0)
    private let publishedFrame = Atomic<Int64>(0)
    private let publishedGeneration = Atomic<Int>(-1)
    private let publishedEnded = Atomic<Bool>(false)
    private let publishedPass = Atomic<Int>(1)
    private let publishedReleaseFaded = Atomic<Bool>(false)
    private let publishedHolding = Atomic<Bool>(false)
    private let publishedFinishedSeek = Atomic<Int>(-1)
    private let publishedTakenCommands = Atomic<Int>(0)
    private let publishedRenderLoad = Atomic<UInt64>(0.0.bitPattern)

    init(tailLimitSeconds: Double, sampleRate: Double, limitsPeaks: Bool) {
        tailLimitFrames = Int64(tailLimitSeconds * sampleRate)
        let limiter = limitsPeaks ? PeakLimiter(sampleRate: sampleRate) : nil
        self.limiter = limiter
        limiterPrimer = .allocate(capacity: 2 * (limiter?.latencyFrames ?? 0))
        self.sampleRate = sampleRate
        commands.withLock { $0.pending.reserveCapacity(64) }
    }

    deinit {
        limiterPrimer.deallocate()
    }

    /// Output frames rendered and not yet handed to the output: the limiter's look-ahead, once
    /// its delay line is filled. They are heard after what the output holds.
    var lookAheadFrames: Int { publishedLookAheadFrames.load(ordering: .relaxed) }

    /// Called by the interface. Returns the command's number (1 for the first posted), which
    /// `takenCommands` reaches once the audio thread has taken it off the queue.
    @discardableResult
    func post(_ command: Command) -> Int {
        commands.withLock { queue in
            queue.pending.append(command)
            queue.posted += 1
            postedCount.store(queue.posted, ordering: .releasing)
            return queue.posted
        }
    }

    /// How many commands the audio thread has taken off the queue, published once it has let go
    /// of the queue's references to them: a sequencer whose last command's number is this or
    /// lower is held by the audio thread only as its song playing, waiting or prepared.
    var takenCommands: Int { publishedTakenCommands.load(ordering: .acquiring) }

    /// Where the engine is, every field from the same moment.
    var position: EnginePosition {
        while true {
            let before = positionSequence.load(ordering: .acquiring)
            guard before & 1 == 0 else { continue }
            let position = EnginePosition(frame: publishedFrame.load(ordering: .relaxed), generation: publishedGeneration.load(ordering: .relaxed),
                                          hasEnded: publishedEnded.load(ordering: .relaxed), pass: publishedPass.load(ordering: .relaxed))
            atomicMemoryFence(ordering: .acquiring)
            if positionSequence.load(ordering: .relaxed) == before { return position }
        }
    }

    /// The audio thread's side of `position`.
    private func publish(_ position: EnginePosition) {
        let sequence = positionSequence.load(ordering: .relaxed)
        positionSequence.store(sequence &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        publishedFrame.store(position.frame, ordering: .relaxed)
        publishedGeneration.store(position.generation, ordering: .relaxed)
        publishedEnded.store(position.hasEnded, ordering: .relaxed)
        publishedPass.store(position.pass, ordering: .relaxed)
        positionSequence.store(sequence &+ 2, ordering: .releasing)
    }

    /// After `releaseAll`: whether the released notes have faded below hearing.
    var releaseHasFaded: Bool { publishedReleaseFaded.load(ordering: .acquiring) }

    /// After `hold`: whether the sound has faded out and the song stands still.
    var isHeld: Bool { publishedHolding.load(ordering: .acquiring) }

    /// The number of the last seek the audio thread is done with (followed, or dropped): it holds
    /// no reference to that plan or an earlier one any more, and the interface may let them go.
    var finishedSeek: Int { publishedFinishedSeek.load(ordering: .acquiring) }

    /// The share of real time the audio thread spent rendering over the last half second of
    /// audio or more: 1 or above, it cannot keep up, and the output runs dry.
    var renderLoad: Double { Double(bitPattern: publishedRenderLoad.load(ordering: .relaxed)) }

    /// Fills a buffer: the render path. No allocation, no I/O, no waiting (but for the parts of a
    /// split song, rendered at the same time on other cores).
    func render(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let started = Self.monotonicNanoseconds()
        defer { timeRender(since: started, frames: frames) }
        if postedCount.load(ordering: .acquiring) != takenCount {
            _ = commands.withLockIfAvailable { queue in
                for command in queue.pending { receive(command) }
                takenCount += queue.pending.count
                queue.pending.removeAll(keepingCapacity: true)
            }
        }
        renderSound(buffer, frames: frames)
        publishedLookAheadFrames.store(lookAheadHeld, ordering: .relaxed)
        // Published last, once the commands taken (and the plans in them) have been let go.
        publishedFinishedSeek.store(scheduledReplace.map { min(lastFinishedSeek, $0.number - 1) } ?? lastFinishedSeek, ordering: .releasing)
        publishedTakenCommands.store(takenCount, ordering: .releasing)
    }

    private func timeRender(since start: Int64, frames: Int) {
        renderNanoseconds += Self.monotonicNanoseconds() - start
        framesTimed += frames
        guard Double(framesTimed) >= sampleRate / 2 else { return }
        let load = Double(renderNanoseconds) * 1e-9 / (Double(framesTimed) / sampleRate)
        publishedRenderLoad.store(load.bitPattern, ordering: .relaxed)
        renderNanoseconds = 0
        framesTimed = 0
    }

    /// The monotonic clock, read straight from the C library: `ContinuousClock.now` and its
    /// `Duration` arithmetic (128-bit) cost about as much as the rest of the engine's own work per
    /// buffer (perf).
    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    private func renderSound(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if let releasing {
            releasing.renderReleases(into: buffer, frames: frames)
            limiter?.process(buffer, frames: frames)
            if Self.isSilent(buffer, frames: frames) { publishedReleaseFaded.store(true, ordering: .releasing) }
            return
        }
        var done = 0
        while done < frames {
            let rest = frames - done
            if !isHolding, fadeRemaining > 0 {
                let count = min(rest, fadeRemaining)
                renderFadingOut(into: buffer + 2 * done, frames: count)
                done += count
                continue
            }
            if isHolding {
                (buffer + 2 * done).update(repeating: 0, count: 2 * rest)
                return
            }
            var count = rest
            if scheduledReplace != nil {
                let untilDue = framesUntilScheduledReplace()
                if untilDue == 0 {
                    takeScheduledReplace()
                    continue
                }
                count = min(count, untilDue)
            }
            renderSong(into: buffer + 2 * done, frames: count)
            if fadeInRemaining > 0 { fadeIn(buffer + 2 * done, frames: count) }
            done += count
        }
    }

    /// Renders the song fading out over what is left of the fade; at its end, applies the command
    /// that waited for it.
    private func renderFadingOut(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        renderSong(into: buffer, frames: frames)
        for frame in 0..<frames {
            let gain = Float(fadeRemaining - frame) / Float(Self.fadeFrames)
            buffer[2 * frame] *= gain
            buffer[2 * frame + 1] *= gain
        }
        fadeRemaining -= frames
        if fadeRemaining == 0, let command = afterFade {
            afterFade = nil
            // A reset only releases the voices: at the end of the fade they are cut, silently.
            // Held, they are kept for later.
            if case .hold = command {} else { current?.silence() }
            apply(command)
        }
    }

    /// Output frames until the scheduled replacement is due: until its plan's frame is the next to
    /// be heard (the song runs the limiter's look-ahead ahead of what is heard), less its fade-out.
    private func framesUntilScheduledReplace() -> Int {
        guard let scheduled = scheduledReplace, let current else { return 0 }
        let untilHeard = current.outputFrames(until: scheduled.plan.frame) + lookAheadHeld
        return max(0, untilHeard - (scheduled.fadeOut ? Self.fadeFrames : 0))
    }

    /// The scheduled replacement is due: it is applied, at the end of its fade-out if it has one.
    private func takeScheduledReplace() {
        guard let scheduled = scheduledReplace else { return }
        scheduledReplace = nil
        cut(.replace(scheduled.song, plan: scheduled.plan, generation: currentGeneration, number: scheduled.number,
                     fadeOut: scheduled.fadeOut))
    }

    private func fadeIn(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let count = min(frames, fadeInRemaining)
        for frame in 0..<count {
            let gain = Float(Self.fadeFrames - fadeInRemaining + frame) / Float(Self.fadeFrames)
            buffer[2 * frame] *= gain
            buffer[2 * frame + 1] *= gain
        }
        fadeInRemaining -= count
    }

    private func renderSong(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            guard let current, !hasEnded else {
                (buffer + 2 * done).update(repeating: 0, count: 2 * (frames - done))
                return
            }
            if limiterIsEmpty { primeLimiter(with: current) }
            let chunk = frames - done
            current.render(into: buffer + 2 * done, frames: chunk)
            limiter?.process(buffer + 2 * done, frames: chunk)
            if current.isAtEnd, tailHasEnded(buffer + 2 * done, frames: chunk) {
                startUpcomingOrEnd()
            }
            // Of the song now current: the next one, if it started in this chunk (`start` set its
            // generation), else this one, its end included.
            if let playing = self.current {
                playedPosition.frame = playing.position
                playedPosition.pass = playing.pass
            }
            publish(playedPosition)
            done += chunk
        }
    }

    /// Renders the song's next frames into the empty limiter's delay line, and drops the silence
    /// that comes out: what follows a cut is heard from its first frame at once, not after the
    /// limiter's look-ahead (5 ms) of silence. The song's position runs the look-ahead ahead of
    /// what is heard, as it always does with the limiter.
    private func primeLimiter(with song: PlayingSong) {
        limiterIsEmpty = false
        guard let limiter else { return }
        song.render(into: limiterPrimer, frames: limiter.latencyFrames)
        limiter.process(limiterPrimer, frames: limiter.latencyFrames)
    }

    /// The song frames in the limiter's delay line, rendered and not yet out.
    private var lookAheadHeld: Int { limiterIsEmpty ? 0 : limiter?.latencyFrames ?? 0 }

    /// A cut: nothing from before it may be heard after it.
    private func emptyLimiter() {
        limiter?.reset()
        limiterIsEmpty = true
    }

    /// Applies a command, or keeps it for the end of a fade-out if it asks for one and something
    /// sounds; a replacement planned ahead of what is heard, for when the song gets there.
    private func receive(_ command: Command) {
        switch command {
        case .load, .seek, .replace, .hold:
            // Loads, seeks and holds apply in order: one already waiting goes first, into the fade's remainder.
            if let waiting = afterFade {
                afterFade = nil
                apply(waiting)
            }
            if case .replace(let song, let plan, let generation, let number, let fadeOut) = command, current != nil,
               generation == currentGeneration, !hasEnded {
                // An earlier one still waiting (the interface replaces a song once) goes first, at once.
                if let earlier = scheduledReplace {
                    scheduledReplace = nil
                    apply(.replace(earlier.song, plan: earlier.plan, generation: generation, number: earlier.number, fadeOut: false))
                }
                scheduledReplace = (song, plan, number, fadeOut)
                if framesUntilScheduledReplace() > 0 { return }
                scheduledReplace = nil
            }
            cut(command)
        default:
            apply(command)
        }
    }

    /// Applies a load, seek, replacement or hold now, or at the end of a fade-out if it asks for
    /// one and something sounds.
    private func cut(_ command: Command) {
        guard command.fadesOut, current != nil, !isHolding, !hasEnded else {
            apply(command)
            return
        }
        afterFade = command
        if fadeRemaining == 0 { fadeRemaining = Self.fadeFrames }
    }

    private func tailHasEnded(_ samples: UnsafeMutablePointer<Float>, frames: Int) -> Bool {
        tailFrames += Int64(frames)
        if tailFrames >= tailLimitFrames { return true }
        // Voices in long releases stay active far below hearing: the level decides.
        return Self.isSilent(samples, frames: frames)
    }

    private static func isSilent(_ samples: UnsafeMutablePointer<Float>, frames: Int) -> Bool {
        for index in 0..<2 * frames where abs(samples[index]) >= RenderOptions.silenceThreshold { return false }
        return true
    }

    private func startUpcomingOrEnd() {
        guard let (song, generation) = upcoming else {
            playedPosition.hasEnded = true
            publish(playedPosition)
            return
        }
        upcoming = nil
        start(song, generation: generation)
    }

    private func start(_ song: PlayingSong, generation: Int) {
        if let scheduled = scheduledReplace {
            // The song it was to replace is over.
            scheduledReplace = nil
            lastFinishedSeek = max(lastFinishedSeek, scheduled.number)
        }
        releasing = nil
        publishedReleaseFaded.store(false, ordering: .releasing)
        song.rewind()
        current = song
        currentGeneration = generation
        tailFrames = 0
        playedPosition = EnginePosition(frame: 0, generation: generation, hasEnded: false, pass: song.pass)
        publish(playedPosition)
    }

    private func apply(_ command: Command) {
        switch command {
        case .load(let song, let generation, _):
            upcoming = nil
            emptyLimiter()
            start(song, generation: generation)
        case .queueNext(let song, let generation):
            upcoming = (song, generation)
            // The current song may have ended while the next was being prepared.
            if hasEnded { startUpcomingOrEnd() }
        case .dropNext:
            upcoming = nil
        case .seek(let plan, let generation, let number, _):
            seek(following: plan, generation: generation, number: number)
        case .replace(let song, let plan, let generation, let number, _):
            guard let current, generation == currentGeneration else {
                lastFinishedSeek = number
                return
            }
            song.continuePass(of: current)
            self.current = song
            seek(following: plan, generation: generation, number: number)
        case .releaseAll:
            // Whatever waited for a fade is dropped: the music stops. A replacement is kept (never
            // to be taken: the next song drops it), since the song it replaces plays out its
            // releases, and the interface must keep it until then.
            switch afterFade {
            case .seek(_, _, let number, _): lastFinishedSeek = number
            case .replace(let song, let plan, _, let number, let fadeOut) where scheduledReplace == nil:
                scheduledReplace = (song, plan, number, fadeOut)
            default: break
            }
            afterFade = nil
            fadeRemaining = 0
            setHolding(false)
            releasing = current
            releasing?.releaseAllNotes()
            if releasing == nil { publishedReleaseFaded.store(true, ordering: .releasing) }
            playedPosition.hasEnded = true
            publish(playedPosition)
        case .hold:
            setHolding(true)
        case .proceed:
            // A hold still fading out is called off.
            if case .hold = afterFade {
                afterFade = nil
                fadeRemaining = 0
            }
            guard isHolding else { return }
            setHolding(false)
            fadeInRemaining = Self.fadeFrames
        }
    }

    private func seek(following plan: SeekPlan, generation: Int, number: Int) {
        lastFinishedSeek = number
        guard var current, generation == currentGeneration else { return }
        if let scheduled = scheduledReplace {
            // The song goes on from the seek's place: split, as it was to be.
            scheduledReplace = nil
            scheduled.song.continuePass(of: current)
            current = scheduled.song
            self.current = current
        }
        emptyLimiter()
        current.seek(following: plan)
        tailFrames = 0
        playedPosition.frame = current.position
        playedPosition.pass = current.pass
        playedPosition.hasEnded = false
        publish(playedPosition)
    }

    private func setHolding(_ holding: Bool) {
        isHolding = holding
        publishedHolding.store(holding, ordering: .releasing)
    }
}
