import Synthesis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The engine's audio-thread side: the song playing and what waits to follow it, the fades, the
/// limiter, and the state it publishes. Reached only from ``PlaybackEngine/render(_:frames:)``,
/// through a lock nothing else takes (so the compiler checks that one thread at a time has it).
///
/// It owns every song and plan it was handed until it retires them (``RetiredObject``): each one
/// goes back to the interface exactly once, when the last of its slots here lets go of it, and
/// nothing is freed on the audio thread.
struct EngineAudioSide: ~Copyable {
    /// A song waiting to follow the current one.
    private struct UpcomingSong {
        var song: PlayingSong
        var generation: Int
    }

    /// A `replace` of the current song planned ahead of what is heard, waiting until the song gets
    /// to the plan's frame.
    private struct ScheduledReplace {
        var song: PlayingSong
        var plan: SeekPlan
        var number: Int
        var fadeOut: Bool
    }

    private let commands: SingleProducerRing<EngineCommand>
    private let retired: SingleProducerRing<RetiredObject>
    private let published: PublishedEngineState
    private let tailLimitFrames: Int64
    private let sampleRate: Double
    /// Keeps the output's peaks at or below −1 dBFS; nil when turned off. Its delay line is
    /// emptied at every cut (a load, a seek, a split's switch), so that nothing from before a cut
    /// is heard after it, and filled again with the first 5 ms after the cut before anything
    /// more comes out (`primeLimiter`); a pause keeps it, and goes on from it.
    private let limiter: PeakLimiter?
    /// Where the frames that fill the limiter's delay line are rendered: its latency's worth.
    private let limiterPrimer: UnsafeMutablePointer<Float>
    /// The limiter's delay line holds nothing since the last cut (or since the start): the next
    /// song frames rendered fill it first.
    private var limiterIsEmpty = true

    /// What the interface reads, as the audio thread keeps it; published after each buffer.
    private var state = EngineState()
    private var current: PlayingSong?
    private var upcoming: UpcomingSong?
    /// After `releaseAll`: the synthesizers play out the current song's releases, and no event is sent.
    private var isReleasing = false
    private var tailFrames: Int64 = 0
    /// A seek or load waiting for the fade-out under way to end.
    private var afterFade: EngineCommand?
    /// Until it is taken, the song it replaces plays on.
    private var scheduledReplace: ScheduledReplace?
    private var fadeRemaining = 0
    /// Paused by `hold`.
    private var isHolding = false
    /// Frames of the fade-in after `proceed` still to come.
    private var fadeInRemaining = 0
    /// Time spent rendering (in nanoseconds), and frames rendered, since the render load was last
    /// measured.
    private var renderNanoseconds: Int64 = 0
    private var framesTimed = 0

    /// The song and its tail have ended (or its notes were released).
    private var hasEnded: Bool { state.position.hasEnded }
    /// The generation of `current`, set with it (`start`).
    private var playingGeneration: Int { state.position.generation }

    init(
        commands: SingleProducerRing<EngineCommand>, retired: SingleProducerRing<RetiredObject>, published: PublishedEngineState,
        tailLimitSeconds: Double, sampleRate: Double, limitsPeaks: Bool
    ) {
        self.commands = commands
        self.retired = retired
        self.published = published
        tailLimitFrames = Int64(tailLimitSeconds * sampleRate)
        self.sampleRate = sampleRate
        let limiter = limitsPeaks ? PeakLimiter(sampleRate: sampleRate) : nil
        self.limiter = limiter
        limiterPrimer = .allocate(capacity: 2 * (limiter?.latencyFrames ?? 0))
    }

    deinit {
        limiterPrimer.deallocate()
    }

    /// Fills a buffer: takes the commands posted, renders, publishes the state.
    mutating func render(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let started = Self.monotonicNanoseconds()
        while let command = commands.pop() { receive(command) }
        renderSound(buffer, frames: frames)
        // Handed back only now: until every copy the audio thread made while it worked has gone,
        // the interface's release of one could be the second last, and the audio thread's the last.
        retired.publishStaged()
        timeRender(since: started, frames: frames)
        state.lookAheadFrames = lookAheadHeld
        published.store(state)
    }

    private mutating func timeRender(since start: Int64, frames: Int) {
        renderNanoseconds += Self.monotonicNanoseconds() - start
        framesTimed += frames
        guard Double(framesTimed) >= sampleRate / 2 else { return }
        state.renderLoad = Double(renderNanoseconds) * 1e-9 / (Double(framesTimed) / sampleRate)
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

    // MARK: Retiring

    private func retire(_ song: PlayingSong?) {
        guard let song else { return }
        retire(.song(song))
    }

    private func retire(_ plan: SeekPlan) {
        retire(.plan(plan))
    }

    /// The interface never has more handed over than the ring of retired objects holds
    /// (``PlaybackEngine/post(_:)``), and each comes back once: the ring cannot be full.
    private func retire(_ object: RetiredObject) {
        let returned = retired.stage(object)
        precondition(returned, "more objects handed to the engine than its ring of retired objects holds")
    }

    /// Retires what a command carries, unused.
    private func retire(contentsOf command: EngineCommand) {
        switch command {
        case .load(let song, _, _), .queueNext(let song, _): retire(song)
        case .seek(let plan, _, _, _): retire(plan)
        case .replace(let song, let plan, _, _, _):
            retire(song)
            retire(plan)
        case .dropNext, .releaseAll, .hold, .proceed, .loudnessGain: break
        }
    }

    /// Makes `song` the one playing, retiring the one it takes the place of.
    private mutating func makeCurrent(_ song: PlayingSong) {
        retire(current)
        current = song
    }

    // MARK: Rendering

    private mutating func renderSound(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if isReleasing, let current {
            current.renderReleases(into: buffer, frames: frames)
            limiter?.process(buffer, frames: frames)
            if Self.isSilent(buffer, frames: frames) { state.releaseHasFaded = true }
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
    private mutating func renderFadingOut(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        renderSong(into: buffer, frames: frames)
        for frame in 0..<frames {
            let gain = Float(fadeRemaining - frame) / Float(PlaybackEngine.fadeFrames)
            buffer[2 * frame] *= gain
            buffer[2 * frame + 1] *= gain
        }
        fadeRemaining -= frames
        if fadeRemaining == 0, let command = afterFade.take() {
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
        return max(0, untilHeard - (scheduled.fadeOut ? PlaybackEngine.fadeFrames : 0))
    }

    /// The scheduled replacement is due: it is applied, at the end of its fade-out if it has one.
    private mutating func takeScheduledReplace() {
        guard let scheduled = scheduledReplace.take() else { return }
        cut(.replace(scheduled.song, plan: scheduled.plan, generation: playingGeneration, number: scheduled.number, fadeOut: scheduled.fadeOut))
    }

    private mutating func fadeIn(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let count = min(frames, fadeInRemaining)
        for frame in 0..<count {
            let gain = Float(PlaybackEngine.fadeFrames - fadeInRemaining + frame) / Float(PlaybackEngine.fadeFrames)
            buffer[2 * frame] *= gain
            buffer[2 * frame + 1] *= gain
        }
        fadeInRemaining -= count
    }

    private mutating func renderSong(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
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
                state.position.frame = playing.position
                state.position.pass = playing.pass
            }
            done += chunk
        }
    }

    /// Renders the song's next frames into the empty limiter's delay line, and drops the silence
    /// that comes out: what follows a cut is heard from its first frame at once, not after the
    /// limiter's look-ahead (5 ms) of silence. The song's position runs the look-ahead ahead of
    /// what is heard, as it always does with the limiter.
    private mutating func primeLimiter(with song: PlayingSong) {
        limiterIsEmpty = false
        guard let limiter else { return }
        song.render(into: limiterPrimer, frames: limiter.latencyFrames)
        limiter.process(limiterPrimer, frames: limiter.latencyFrames)
    }

    /// The song frames in the limiter's delay line, rendered and not yet out.
    private var lookAheadHeld: Int { limiterIsEmpty ? 0 : limiter?.latencyFrames ?? 0 }

    /// A cut: nothing from before it may be heard after it.
    private mutating func emptyLimiter() {
        limiter?.reset()
        limiterIsEmpty = true
    }

    private mutating func tailHasEnded(_ samples: UnsafeMutablePointer<Float>, frames: Int) -> Bool {
        tailFrames += Int64(frames)
        if tailFrames >= tailLimitFrames { return true }
        // Voices in long releases stay active far below hearing: the level decides.
        return Self.isSilent(samples, frames: frames)
    }

    private static func isSilent(_ samples: UnsafeMutablePointer<Float>, frames: Int) -> Bool {
        for index in 0..<2 * frames where abs(samples[index]) >= RenderOptions.silenceThreshold { return false }
        return true
    }

    // MARK: Commands

    /// Applies a command, or keeps it for the end of a fade-out if it asks for one and something
    /// sounds; a replacement planned ahead of what is heard, for when the song gets there.
    private mutating func receive(_ command: EngineCommand) {
        switch command {
        case .load, .seek, .replace, .hold:
            // Loads, seeks and holds apply in order: one already waiting goes first, into the fade's remainder.
            if let waiting = afterFade.take() { apply(waiting) }
            if case .replace(let song, let plan, let generation, let number, let fadeOut) = command, current != nil,
                generation == playingGeneration, !hasEnded
            {
                // An earlier one still waiting (the interface replaces a song once) goes first, at once.
                if let earlier = scheduledReplace.take() {
                    apply(.replace(earlier.song, plan: earlier.plan, generation: generation, number: earlier.number, fadeOut: false))
                }
                scheduledReplace = ScheduledReplace(song: song, plan: plan, number: number, fadeOut: fadeOut)
                if framesUntilScheduledReplace() > 0 { return }
                // Due at once: it goes on as the command it came in (which holds the same song and plan).
                scheduledReplace = nil
            }
            cut(command)
        default:
            apply(command)
        }
    }

    /// Applies a load, seek, replacement or hold now, or at the end of a fade-out if it asks for
    /// one and something sounds.
    private mutating func cut(_ command: EngineCommand) {
        guard command.fadesOut, current != nil, !isHolding, !hasEnded else {
            apply(command)
            return
        }
        if let waiting = afterFade.take() { apply(waiting) }
        afterFade = command
        if fadeRemaining == 0 { fadeRemaining = PlaybackEngine.fadeFrames }
    }

    private mutating func startUpcomingOrEnd() {
        guard let next = upcoming.take() else {
            state.position.hasEnded = true
            return
        }
        start(next.song, generation: next.generation)
    }

    private mutating func start(_ song: PlayingSong, generation: Int) {
        if let scheduled = scheduledReplace.take() {
            // The song it was to replace is over.
            state.followedSeek = max(state.followedSeek, scheduled.number)
            retire(scheduled.song)
            retire(scheduled.plan)
        }
        isReleasing = false
        state.releaseHasFaded = false
        song.rewind()
        makeCurrent(song)
        tailFrames = 0
        state.position = EnginePosition(frame: 0, generation: generation, hasEnded: false, pass: song.pass)
    }

    private mutating func apply(_ command: EngineCommand) {
        switch command {
        case .load(let song, let generation, _):
            retire(upcoming.take()?.song)
            emptyLimiter()
            start(song, generation: generation)
        case .queueNext(let song, let generation):
            retire(upcoming.take()?.song)
            upcoming = UpcomingSong(song: song, generation: generation)
            // The current song may have ended while the next was being prepared.
            if hasEnded { startUpcomingOrEnd() }
        case .dropNext:
            retire(upcoming.take()?.song)
        case .seek(let plan, let generation, let number, _):
            seek(following: plan, generation: generation, number: number)
            retire(plan)
        case .replace(let song, let plan, let generation, let number, _):
            guard let current, generation == playingGeneration else {
                state.followedSeek = number
                retire(contentsOf: command)
                return
            }
            song.continuePass(of: current)
            song.continueLoudness(of: current)
            makeCurrent(song)
            seek(following: plan, generation: generation, number: number)
            retire(plan)
        case .releaseAll:
            releaseAll()
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
            fadeInRemaining = PlaybackEngine.fadeFrames
        case .loudnessGain(let gain, let generation):
            if generation == playingGeneration {
                current?.rampLoudnessGain(to: gain)
            } else if let upcoming, upcoming.generation == generation {
                upcoming.song.startLoudnessGain(at: gain)
            }
        }
    }

    /// Whatever waited for a fade is dropped: the music stops. A replacement is kept (never to be
    /// taken: the next song retires it), since the song it replaces plays out its releases.
    private mutating func releaseAll() {
        if let waiting = afterFade.take() {
            switch waiting {
            case .seek(_, _, let number, _):
                state.followedSeek = number
                retire(contentsOf: waiting)
            case .replace(let song, let plan, _, let number, let fadeOut) where scheduledReplace == nil:
                scheduledReplace = ScheduledReplace(song: song, plan: plan, number: number, fadeOut: fadeOut)
            default:
                retire(contentsOf: waiting)
            }
        }
        fadeRemaining = 0
        setHolding(false)
        if let current {
            isReleasing = true
            current.releaseAllNotes()
        } else {
            state.releaseHasFaded = true
        }
        state.position.hasEnded = true
    }

    private mutating func seek(following plan: SeekPlan, generation: Int, number: Int) {
        state.followedSeek = number
        guard var current, generation == playingGeneration else { return }
        if let scheduled = scheduledReplace.take() {
            // The song goes on from the seek's place: split, as it was to be.
            scheduled.song.continuePass(of: current)
            makeCurrent(scheduled.song)
            retire(scheduled.plan)
            current = scheduled.song
        }
        emptyLimiter()
        current.seek(following: plan)
        tailFrames = 0
        state.position.frame = current.position
        state.position.pass = current.pass
        state.position.hasEnded = false
    }

    private mutating func setHolding(_ holding: Bool) {
        isHolding = holding
        state.isHeld = holding
    }
}
