import Files
import Loudness
import SMF
import Synthesis
import SystemPackage
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Plays a queue of MIDI files through a real-time sink: the interface's side.
///
/// Every method is called from one thread (the interface's); the audio is
/// rendered by ``PlaybackEngine`` on the sink's thread.
public final class Player {
    public private(set) var queue = PlayQueue(items: [])
    public let chaseNotes: Bool
    /// How often a song's loop plays.
    public let loops: LoopSettings
    /// How many synthesizers a song plays on.
    public let split: SongSplit
    /// The render load (``PlaybackEngine/renderLoad``) at which one synthesizer is taken to be
    /// unable to keep up: the output has some slack, and runs dry near 1.
    public static let overloadedRenderLoad = 0.75
    /// The render load at which an underrun is taken for one synthesizer's doing: the load is an
    /// average over half a second, and the moments where many notes start at once go above it.
    /// Below, an underrun has another cause (the machine busy elsewhere), which a split would not cure.
    public static let strainedRenderLoad = 0.5
    /// The output's underrun count when the player last looked.
    private var underrunsSeen = 0
    /// The keyboard's keys and the channel panel's channels, as they are heard.
    private var heardKeys = HeardLooks.keys()
    private var heardChannels = HeardLooks.channels()
    /// Plays every song, or the first part of a split one.
    private let synthesizer: Synthesizer
    /// Whether songs are split across synthesizers: from the start with `.always`, once one
    /// could not keep up with `.whenNeeded`.
    private var splitsSongs: Bool
    /// The split's synthesizers or threads could not be made (reported once): no song is split.
    private var cannotSplit = false
    /// What a split takes beyond `synthesizer`, made at the first split: a synthesizer for each
    /// part after the first, the threads that render them, and a synthesizer that weighs a song's
    /// notes for the split (``Sequencer/noteLoads(probe:)``).
    private var splitEquipment: (synthesizers: [Synthesizer], threads: PartThreads, probe: Synthesizer)?
    private let engine: PlaybackEngine
    /// The output: another one, made by `makeSink`, once a lost one comes back (``followOutput()``).
    private var sink: any PlaybackSink
    private let makeSink: (@escaping (UnsafeMutablePointer<Float>, Int) -> Void) throws -> any PlaybackSink
    /// The output lost, while the player tries to open it again; nil while it plays.
    private var reconnection: OutputReconnection?
    /// How long the player tries before it gives up (``sinkFailure``).
    private let reconnectTimeout: Duration
    private let sampleRate: Double
    /// Reports a file that could not be played (and was skipped).
    private let onProblem: (String) -> Void
    /// A song's own settings (its folder's), asked for each file as it is prepared: nil for the
    /// command's own; an error skips the song, said with the file's name. A song whose
    /// synthesizer settings or SoundFonts differ plays on a synthesizer of its own, as a song with
    /// its own bank does; its loops are its own, its own transposition is its synthesizer's
    /// (``SynthesizerSettings/keyShift``), under the listener's, which is one for the whole queue,
    /// and its texts are read as it says (``textDecoding(generation:)``). Called from the player's
    /// thread and the background measurer's.
    public typealias SongSettingsSource = @Sendable (FilePath) -> Result<SongSettings?, SongSettingsProblem>
    /// How each song sounds: its own settings and its own sound bank (a song with one plays on a
    /// synthesizer of its own, made when the song is prepared, ahead of its turn).
    private let soundSource: SongSoundSource
    /// Songs read already, by the queue item that stands for them: the song piped in on standard
    /// input, which cannot be read again, and a first file read to check where it starts. Other
    /// files are read when their turn comes.
    public var preloadedSongs: [QueueItem: Song] = [:]
    /// The file `init` read while the output connected and the SoundFont loaded, for the first
    /// `play` (let go there, played or not).
    private var readAhead: (item: QueueItem, song: Song)?
    /// What songs are brought to as they play, and where their loudness is kept; nil plays each
    /// as it sounds.
    private let loudness: PlaybackLoudness?
    /// Nil until it is open (``adoptMemoryOnceOpen()``), and for good when it cannot be.
    private var loudnessMemory: (any LoudnessMemory)?
    /// Opens the memory on a thread of its own, started once the first sound is out: opening the
    /// index (SQLite, its schema checked) must not take a core from the synthesizer being made
    /// for the first sound, nor may the first song wait for it. Nil before and once done.
    private var openingMemory: BackgroundWork<(any LoudnessMemory)?>?
    private var hasStartedOpeningMemory = false
    /// Songs prepared before the memory was open: looked up in it (and measured, when it does not
    /// know them) once it is.
    private var awaitingMemory: [BackgroundLoudness.Request] = []
    /// Measures the songs prepared whose loudness is not known, while others play.
    private var backgroundLoudness: BackgroundLoudness?
    /// What the loudness memory said, on whatever thread, for `onProblem`.
    private let loudnessProblems: ProblemInbox
    /// Songs to measure, held until the first sound is out: a measurement's synthesizer and
    /// render must not compete with the first buffers.
    private var heldMeasurements: [BackgroundLoudness.Work] = []
    /// With `--loudness folder`: the loudness of each folder measured (nil: nothing but silence
    /// in it), and the folders asked for.
    private var folderLoudness: [FilePath: Loudness?] = [:]
    private var askedFolders: Set<FilePath> = []

    /// The songs handed to the engine from the one it plays on, by generation: what the snapshots
    /// and seeks need of them. The engine gives the songs themselves back when it is done with
    /// them (``PlaybackEngine/collectRetired()``); the player only forgets them here.
    private var loaded: [Int: LoadedSong] = [:]
    private var nextGeneration = 0
    /// The generation prepared to follow the current one, if any.
    private var preparedGeneration: Int?
    /// The generation of the song playing, or about to: the one seeks go to.
    private var playingGeneration: Int?
    /// Seeks and split replacements are numbered in the order they are posted (the engine says
    /// which it followed last).
    private var nextSeekNumber = 0
    /// The last seek's place, until it is heard: a seek by an offset goes on from there, not from
    /// what is still heard before it (the engine's next buffer and the output's latency come
    /// between), so that quick presses add up to one place.
    private var unheardSeek: UnheardSeek?
    private var isPaused = false
    /// The place (in the playing order) of the first queued file that could not be reached since
    /// `play` (gone, or its folder): passed over, not played, and kept in the queue. A queue that
    /// ends so has not been played to its end: the next resume starts there.
    public private(set) var firstPassedOverPlace: Int?
    /// Whether any queued file could not be played (not read, or no sound made for it, or passed
    /// over): said as it happened, and `play` ends with status 1 when the rest is done.
    public private(set) var hasPassedOverFiles = false
    /// The song after which ``prepareNext(after:)`` found nothing to play.
    private var nothingFollows: Int?
    /// Folders and SoundFonts found gone, each said once.
    private var unreachableFolders: Set<FilePath> = []
    private var goneSoundFonts: Set<FilePath> = []
    /// A song without loop marks has been said to play once, whatever `loops` asks.
    private var hasWarnedOfUnmarkedSongs = false
    /// Since `stop()`, until the next `play`.
    public private(set) var isStopped = true
    /// The output has not played since it opened or since `stop()`: it waits, paused, with a
    /// buffer of silence, which the first song must replace rather than follow.
    private var isOutputIdle = true

    /// Connects the output, loads the SoundFont and reads `readingAhead` at once, on three
    /// threads: the first sound waits for the slowest, not for all. A missing sound server is
    /// reported first, whatever the SoundFont's fate (it is the reason nothing can play).
    /// - Parameter makeSink: opens the output with the render closure it must call for every buffer.
    /// - Parameter limitsPeaks: keeps the output at or below −1 dBFS with the look-ahead limiter.
    /// - Parameter readingAhead: the file the first `play` will start with, if known. One that
    ///   cannot be read is left for `play` to report.
    /// - Parameter loudness: brings every song to one loudness; its memory opens once the first sound is out.
    /// - Parameter reconnectTimeout: how long the player tries to open the output again when it is
    ///   lost (the sound server gone), keeping its place, before ``sinkFailure`` says so.
    public init(
        chaseNotes: Bool, tailLimitSeconds: Double, sampleRate: Double, limitsPeaks: Bool = true, loops: LoopSettings = .asWritten,
        split: SongSplit = .always(cores: 1), songBanks: SongBankLookup = SongBankLookup(), songSettings: SongSettingsSource? = nil,
        readingAhead: FilePath? = nil, loudness: PlaybackLoudness? = nil, reconnectTimeout: Duration = .seconds(60),
        makeSink: @escaping (@escaping (UnsafeMutablePointer<Float>, Int) -> Void) throws -> any PlaybackSink,
        makeSynthesizer: @escaping @Sendable () throws -> Synthesizer,
        onProblem: @escaping (String) -> Void
    ) throws {
        let engine = PlaybackEngine(tailLimitSeconds: tailLimitSeconds, sampleRate: sampleRate, limitsPeaks: limitsPeaks)
        let making = BackgroundWork { Result { try makeSynthesizer() } }
        let reading = readingAhead.map { file in BackgroundWork { try? Song(file: SMFReader().read(path: file).file) } }
        let loudnessProblems = ProblemInbox()
        let opened = Result { try makeSink { buffer, frames in engine.render(buffer, frames: frames) } }
        let made = making.value()
        let read = reading?.value() ?? nil
        let sink = try opened.get()
        do {
            synthesizer = try made.get()
        } catch {
            sink.close()
            throw error
        }
        self.engine = engine
        self.sink = sink
        self.makeSink = makeSink
        self.reconnectTimeout = reconnectTimeout
        self.chaseNotes = chaseNotes
        self.loops = loops
        self.split = split
        if case .always(let cores) = split { splitsSongs = cores > 1 } else { splitsSongs = false }
        self.onProblem = onProblem
        soundSource = SongSoundSource(
            settings: synthesizer.configuration, soundFonts: synthesizer.soundFonts, loops: loops, songSettings: songSettings,
            songBanks: songBanks)
        self.sampleRate = sampleRate
        if let readingAhead, let read { readAhead = (.file(readingAhead), read) }
        self.loudness = loudness
        self.loudnessProblems = loudnessProblems
    }

    deinit {
        backgroundLoudness?.stop()
        sink.close()
    }

    /// Plays `queue` from its current file, at `seconds` into it, in place of whatever was playing.
    /// A file that cannot be read is reported and skipped; the file after it starts from its
    /// beginning, not at `seconds`, which was a place in the one skipped.
    /// - Returns: false when nothing in the queue from its current file on could be read; what
    /// played before (if anything) then goes on.
    @discardableResult
    public func play(_ queue: PlayQueue, atSeconds seconds: Double = 0) -> Bool {
        play(queue, at: .seconds(seconds))
    }

    /// Plays `queue` from its current file, at `position` in it (see ``play(_:atSeconds:)``); a bar
    /// the file does not have (or a file timed in SMPTE frames) starts it from its beginning.
    @discardableResult
    public func play(_ queue: PlayQueue, at position: SongPosition) -> Bool {
        let before = (queue: self.queue, isStopped: isStopped)
        self.queue = queue
        isStopped = false
        firstPassedOverPlace = nil
        let requested = queue.current
        let readAhead = self.readAhead
        self.readAhead = nil
        guard loadCurrent(readAhead: readAhead) else {
            (self.queue, isStopped) = before
            return false
        }
        if self.queue.current == requested, let seconds = playingGeneration.flatMap({ seconds(of: position, generation: $0) }), seconds > 0 {
            seek(toSeconds: seconds)
        }
        // The sink opens (and stops) paused, with its buffer already filled: with silence, rendered
        // before there was a song. Dropped, the song's first frame is the first heard, a buffer sooner.
        if isOutputIdle { sink.flush {} }
        engine.post(.proceed)
        sink.resume()
        isPaused = false
        isOutputIdle = false
        return true
    }

    /// The queue's repeat mode. A change holds from the song playing: what follows it is prepared
    /// again (the same file, the next, the first again, or nothing).
    public var repeatMode: PlayQueue.RepeatMode {
        get { queue.repeatMode }
        set {
            guard newValue != queue.repeatMode else { return }
            queue.repeatMode = newValue
            prepareNextAgain()
        }
    }

    /// Whether the queue plays in a shuffled order. Shuffling keeps the song playing and puts the
    /// others after it in a new order; unshuffling goes on in the queue's own order from it.
    public var isShuffled: Bool {
        get { queue.isShuffled }
        set {
            guard newValue != queue.isShuffled else { return }
            queue.setShuffled(newValue, seed: UInt64.random(in: 0...UInt64.max))
            prepareNextAgain()
        }
    }

    /// The queue changed after the song playing: what follows it is prepared again (the same
    /// file, the next, the first again, or nothing).
    private func prepareNextAgain() {
        let state = followEngine()
        guard !isStopped, playingGeneration != nil else { return }
        if preparedGeneration != nil {
            // The engine gives the song dropped back; `loaded` forgets it once a later one plays.
            engine.post(.dropNext)
            preparedGeneration = nil
        }
        nothingFollows = nil
        prepareNextIfDue(engineAt: state.position)
    }

    /// Adds files to the end of the queue.
    public func append(_ files: [FilePath]) {
        queue.append(files.map(QueueItem.file))
        // What follows the current song may have changed.
        guard !isStopped, preparedGeneration == nil else { return }
        nothingFollows = nil
        prepareNextIfDue(engineAt: followEngine().position)
    }

    /// Prepares what follows the song playing, unless it is prepared, or nothing follows, or the
    /// engine has not started the song yet: a skip's load waits for the fade-out of the song before
    /// it, and the engine applies each load after what it was sent before it (a next song sent
    /// then would be dropped by the load, and would follow the song skipped from).
    private func prepareNextIfDue(engineAt position: EnginePosition) {
        guard !isStopped, preparedGeneration == nil, let playing = playingGeneration, position.generation == playing,
            nothingFollows != playing
        else { return }
        prepareNext(after: playing)
    }

    /// What is being heard. Call it regularly (10–20 times a second): it also
    /// moves the queue on when a song ends and prepares the next one. Without
    /// `keysAndChannels` (when nothing shows them: no screen), the snapshot leaves out the keys
    /// held and the channels' instruments, the most of what gathering it costs.
    public func update(keysAndChannels: Bool = true) -> PlayerSnapshot {
        engine.collectRetired()
        followOutput()
        let state = followEngine()
        absorbMeasurements(sounding: state.position.frame > 0)
        let position = state.position
        loaded = loaded.filter { $0.key >= position.generation }
        let renderLoad = state.renderLoad
        let underruns = sink.underrunCount
        splitIfOverloaded(renderLoad: renderLoad, underrunsSinceLastLook: underruns - underrunsSeen)
        underrunsSeen = underruns
        // Also once the song has ended: a queue started at its song's very end (a resume state
        // saved as it ended) ends it before any update could prepare what follows.
        prepareNextIfDue(engineAt: position)
        let current = loaded[position.generation]
        let performance = synthesizer.performance.current
        let heardFrame = heardFrame(of: state)
        forgetSeekOnceHeard(state: state, heardFrame: heardFrame)
        // What the keyboard and the channels show: once the song and its tail have ended, all it
        // rendered has been heard.
        let shownFrame = position.hasEnded ? position.frame : heardFrame
        let song = current?.song.whole.song
        let heardSeconds = min(Double(heardFrame) / sampleRate, song?.duration ?? 0)
        let heardTick = song.map { $0.tempoMap.tick(atSeconds: heardSeconds) }
        let tempo = song.flatMap { song in
            heardTick.flatMap(song.tempoMap.microsecondsPerQuarterNote(atTick:)).map { 60_000_000 / Double($0) * performance.tempo }
        }
        // nil is a loop played for ever, which `current?.song.whole.passCount ?? 1` took for no song.
        let passCount: Int? = if let current { current.song.whole.passCount } else { 1 }
        return PlayerSnapshot(
            item: current.map { queue.items[queue.order[$0.place]] }, place: current?.place ?? queue.place, queueLength: queue.order.count,
            heardSeconds: heardSeconds, heardTick: heardTick ?? 0, durationSeconds: song?.duration ?? 0, isPaused: isPaused, tempoBPM: tempo,
            hasEnded: isStopped
                || position.hasEnded && preparedGeneration == nil && (position.generation >= 0 || queue.current == nil)
                    && (playingGeneration ?? position.generation) == position.generation,
            underruns: underruns,
            pressedKeys: keysAndChannels
                ? heardKeys.look(
                    synthesizer.pressedKeys.read(), generation: position.generation,
                    frame: position.frame, heardFrame: shownFrame) : [],
            noteRange: current?.noteRange,
            performance: performance, pass: current == nil ? 1 : position.pass, passCount: passCount,
            channels: keysAndChannels
                ? heardChannels.look(
                    channels(used: current?.usedChannels ?? 0, namedBy: current?.song.whole.synthesizer ?? synthesizer),
                    generation: position.generation,
                    frame: position.frame, heardFrame: shownFrame) : [],
            barBeat: heardTick.flatMap { tick in current?.meter?.place(atTick: tick) }, start: position.generation,
            cores: current?.song.parts.count ?? 1, renderLoad: renderLoad, loudness: playedLoudness(of: current),
            isOutputLost: reconnection != nil)
    }

    /// Notices an output that stopped working, and tries to open it again, every so often
    /// (``OutputReconnection``): the engine, which no output asks for audio meanwhile, is sent back
    /// to what was heard when it stopped, so that the new output starts from there, not from where
    /// rendering had got to. Each try is a connection: refused at once while no server listens.
    private func followOutput() {
        let now = ContinuousClock.now
        if reconnection == nil, let failure = sink.failure {
            reconnection = OutputReconnection(failure: failure, at: now)
            sink.close()
            seekToHeard()
        }
        guard var lost = reconnection, now >= lost.nextTry, !lost.hasTimedOut(reconnectTimeout, at: now) else { return }
        let engine = engine
        do {
            sink = try makeSink { buffer, frames in engine.render(buffer, frames: frames) }
            reconnection = nil
            underrunsSeen = sink.underrunCount
            if !isPaused, !isOutputIdle { sink.resume() }
        } catch {
            lost.tryFailed(at: ContinuousClock.now)
            reconnection = lost
        }
    }

    /// Sends the engine back to the frame being heard (what it rendered less what the output
    /// held), in the song being heard.
    private func seekToHeard() {
        let state = followEngine()
        guard let generation = playingGeneration, state.position.generation == generation, !state.position.hasEnded,
            let sequencer = loaded[generation]?.song.whole
        else { return }
        let seek = seekCommand(to: min(heardFrame(of: state), sequencer.endFrame), in: generation, of: sequencer, chaseNotes: true)
        engine.post(seek(false))
    }

    /// The song frame being heard: what the engine rendered less what the output holds (none
    /// while paused: the output plays nothing). What is buffered plays at the tempo it was
    /// rendered at: the listener's, nearly always.
    private func heardFrame(of state: EngineState) -> Int64 {
        let tempo = synthesizer.performance.current.tempo
        let latencyFrames = Int64((outputLatencySeconds(lookAheadFrames: state.lookAheadFrames) * sampleRate * tempo).rounded())
        return max(0, state.position.frame - (isPaused ? 0 : latencyFrames))
    }

    private func seconds(of position: SongPosition, generation: Int) -> Double? {
        loaded[generation].flatMap { position.seconds(in: $0.song.whole.song, meter: $0.meter) }
    }

    /// The song of a snapshot's `start`, while the player holds it.
    public func song(generation: Int) -> Song? {
        loaded[generation]?.song.whole.song
    }

    /// How the song of a snapshot's `start` has its texts read, when its own settings (its
    /// folder's `text_encoding`) say; nil: as the session reads every song's.
    public func textDecoding(generation: Int) -> TextDecoding? {
        loaded[generation]?.textDecoding
    }

    /// The 16 channels, each port's part of a channel taken together; those the song sends
    /// nothing on have no instrument. `names` is the song's synthesizer, which knows the names of
    /// its own bank's presets as well as the stack's.
    private func channels(used: UInt16, namedBy names: Synthesizer) -> [ChannelSnapshot] {
        let velocities = synthesizer.activity.readVelocities()
        return (0..<16).map { channel in
            let parts = stride(from: channel, to: Synthesizer.channelCount, by: 16)
            let preset = used & 1 << UInt16(channel) == 0 ? nil : parts.lazy.compactMap { self.synthesizer.activity.preset(part: $0) }.first
            return ChannelSnapshot(
                number: channel + 1, instrument: preset.flatMap(names.name(of:)), isDrum: preset?.isDrum ?? (channel == 9),
                velocity: parts.map { velocities[$0] }.max() ?? 0)
        }
    }

    /// What the engine says of itself; takes note of its moving on to the prepared song by itself.
    @discardableResult
    private func followEngine() -> EngineState {
        let state = engine.state
        if let prepared = preparedGeneration, state.position.generation == prepared {
            preparedGeneration = nil
            playingGeneration = prepared
            queue.move(toPlace: loaded[prepared]!.place)
        }
        return state
    }

    /// The listener's transposition, tempo and channels: a change is heard from the next buffer,
    /// and holds for every song after.
    public var performance: Performance {
        get { synthesizer.performance.current }
        set { synthesizer.performance.current = newValue }
    }

    /// How long a frame the engine renders now takes to be heard: what the output holds, and the
    /// limiter's look-ahead before it.
    var outputLatencySeconds: Double {
        outputLatencySeconds(lookAheadFrames: engine.state.lookAheadFrames)
    }

    private func outputLatencySeconds(lookAheadFrames: Int) -> Double {
        sink.latencySeconds + Double(lookAheadFrames) / sampleRate
    }

    /// Why the output renders at normal priority, if it does (see `PlaybackSink`).
    public var outputNormalPriorityReason: String? { sink.normalPriorityReason }

    /// Why the output stopped working, once the player has tried for `reconnectTimeout` to open
    /// it again; nil while it plays or while it tries.
    public var sinkFailure: (any Error)? {
        guard let reconnection, reconnection.hasTimedOut(reconnectTimeout, at: .now) else { return nil }
        return reconnection.failure
    }

    /// Pausing fades the sound out before the output stops: stopped mid-waveform, it clicks.
    /// With a short output buffer the fade is heard once the buffer has played (under 100 ms in
    /// all); a longer one stops at once. Resuming fades back in.
    public func togglePause() {
        if isPaused {
            engine.post(.proceed)
            sink.resume()
        } else {
            if sink.latencySeconds <= Self.longestUnflushedLatency {
                engine.post(.hold)
                // The fade is rendered at the next buffer, and heard once what the output holds
                // (and the limiter's look-ahead) has played.
                if Self.wait(atMostSeconds: 0.1, until: { engine.state.isHeld }) { Self.sleep(seconds: outputLatencySeconds) }
            }
            sink.pause()
        }
        isPaused.toggle()
    }

    /// Seeks relative to what is being heard, or to the last seek's place while it is not heard yet.
    public func seek(bySeconds offset: Double) {
        let heardSeconds = update().heardSeconds
        let from = unheardSeek.map { Double($0.frame) / sampleRate } ?? heardSeconds
        seek(toSeconds: max(0, from + offset))
    }

    /// Lets go of the last seek's place once the engine has followed it and its place has been
    /// heard, or the song has moved elsewhere since (back round its loop, another song).
    private func forgetSeekOnceHeard(state: EngineState, heardFrame: Int64) {
        guard let seek = unheardSeek else { return }
        let position = state.position
        let followed = state.followedSeek >= seek.number && position.generation == seek.generation
        if seek.generation != playingGeneration || followed && (heardFrame >= seek.frame || position.frame < seek.frame) {
            unheardSeek = nil
        }
    }

    /// Works out the seek here, on the interface's thread: reading the song up to the target takes
    /// time in proportion to it, and the audio thread must only follow the plan, a bounded work.
    public func seek(toSeconds seconds: Double) {
        _ = followEngine()
        guard let generation = playingGeneration, let sequencer = loaded[generation]?.song.whole else { return }
        let frame = min(Int64((seconds * sampleRate).rounded()), sequencer.endFrame)
        change(seekCommand(to: frame, in: generation, of: sequencer, chaseNotes: chaseNotes))
    }

    /// A seek to `frame` of the song of `generation`, planned here, numbered, and remembered until
    /// it is heard; the engine command is made with or without a fade out.
    private func seekCommand(
        to frame: Int64, in generation: Int, of sequencer: Sequencer, chaseNotes: Bool
    ) -> (_ fadeOut: Bool) -> EngineCommand {
        let plan = sequencer.plan(seekingTo: frame, chaseNotes: chaseNotes)
        let number = nextSeekNumber
        nextSeekNumber += 1
        unheardSeek = UnheardSeek(number: number, generation: generation, frame: frame)
        return { .seek(plan, generation: generation, number: number, fadeOut: $0) }
    }

    public func restart() {
        seek(toSeconds: 0)
    }

    /// Plays the next file (the first again with repeat all). Returns false on the queue's last
    /// file, which plays on, the queue left at it.
    @discardableResult
    public func next() -> Bool {
        var moved = queue
        guard moved.next() else { return false }
        queue = moved
        loadCurrent()
        return true
    }

    /// Plays the file at `place` in the queue's playing order, from its start.
    public func jump(toPlace place: Int) {
        queue.move(toPlace: place)
        loadCurrent()
    }

    /// Within the first 3 seconds, the file before; later, this file from its start.
    public func previous() {
        if queue.previous(elapsedSeconds: update().heardSeconds) {
            loadCurrent()
        } else {
            restart()
        }
    }

    /// Releases every note and lets the releases play out (0.3 s at most), so nothing is cut or
    /// left hanging; then the output waits, paused, for the next `play`. Paused, the music has
    /// faded out already: nothing more is heard.
    public func stop() {
        engine.post(.releaseAll)
        if !isPaused {
            // The releases must be rendered before the drain, which stops rendering.
            Self.wait(atMostSeconds: 0.3, until: { engine.state.releaseHasFaded })
            sink.drain(atMostSeconds: 0.3)
        }
        isStopped = true
        isOutputIdle = true
        preparedGeneration = nil
    }

    /// Waits, looking every millisecond, until `condition` holds or `seconds` have passed: true
    /// if it holds.
    @discardableResult
    private static func wait(atMostSeconds seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .microseconds(Int64(seconds * 1_000_000))
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            sleep(seconds: 0.001)
        }
        return true
    }

    private static func sleep(seconds: Double) {
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        nanosleep(&pause, nil)
    }

    /// Disconnects from the sound server (`deinit` does it too).
    public func close() {
        sink.close()
    }

    /// The longest output buffer that a seek or a skip lets play out rather than flush.
    static let longestUnflushedLatency = 0.08

    /// Makes a seek or a skip. With a short output buffer, what is buffered plays out while the
    /// engine fades the sound out, so that no voice is cut mid-waveform (a click), and the change
    /// is heard once the buffer has played (under 100 ms). A longer buffer, or a paused stream, is
    /// flushed instead, so that the change is heard at once.
    private func change(_ command: (_ fadeOut: Bool) -> EngineCommand) {
        // Nothing has been heard yet: no fade; `play` drops the output's buffer once, before it starts.
        if isOutputIdle {
            engine.post(command(false))
        } else if !isPaused, sink.latencySeconds <= Self.longestUnflushedLatency {
            engine.post(command(true))
        } else {
            sink.flush { engine.post(command(false)) }
        }
    }

    /// Loads the queue's current item now, skipping files that cannot be read; `readAhead` is a
    /// file read already, taken if it is the current one.
    @discardableResult
    private func loadCurrent(readAhead: (item: QueueItem, song: Song)? = nil) -> Bool {
        preparedGeneration = nil
        var tried = 0
        while let item = queue.current, tried < queue.order.count {
            switch prepare(item, readAhead: readAhead?.item == item ? readAhead?.song : nil) {
            case .ready(let prepared):
                let generation = register(prepared, place: queue.place)
                playingGeneration = generation
                change { .load(prepared.song, generation: generation, fadeOut: $0) }
                return true
            case .damaged:
                queue.removeCurrent()
            case .unreachable:
                // Kept, for when it is back: passed over this time.
                if firstPassedOverPlace == nil { firstPassedOverPlace = queue.place }
                tried += 1
                guard queue.next() else { return false }
            }
        }
        return false
    }

    /// Prepares the file after the current one, so that the engine can go on without a gap.
    private func prepareNext(after generation: Int) {
        guard let current = loaded[generation] else { return }
        var upcoming = queue
        upcoming.move(toPlace: current.place)
        var tried = 0
        while upcoming.advanceAfterEnd(), let item = upcoming.current, tried < queue.order.count {
            switch prepare(item) {
            case .ready(let prepared):
                let next = register(prepared, place: upcoming.place)
                preparedGeneration = next
                engine.post(.queueNext(prepared.song, generation: next))
                return
            case .damaged:
                // Removed for good; the file after it moves up into its place, looked at next.
                let place = upcoming.place
                queue.remove(place: place)
                upcoming = queue
                upcoming.move(toPlace: place > 0 ? place - 1 : upcoming.order.count - 1)
            case .unreachable:
                // Kept, for when it is back (a disk mounted again): passed over this time.
                if firstPassedOverPlace == nil { firstPassedOverPlace = upcoming.place }
                tried += 1
            }
        }
        // Nothing follows: the queue runs out after this song. Not looked for again at every
        // update (files passed over would be read and said again and again), only when the queue
        // changes (``prepareNextAgain()``, ``append(_:)``).
        preparedGeneration = nil
        nothingFollows = generation
    }

    /// A song made ready to hand to the engine, and how its texts are read when its own settings
    /// say (nil: as the session reads every song's).
    private struct PreparedSong {
        var song: PlayingSong
        var textDecoding: TextDecoding?
        var loudnessKey: SongSoundKey?
        var unityLoudness: Loudness?
        var folder: FilePath?
        var levelledBy: LoudnessLevelling?
    }

    /// What preparing a queue item came to.
    private enum Preparation {
        case ready(PreparedSong)
        /// It cannot be played, ever (a damaged file, a song whose settings are wrong): said, and
        /// taken out of the queue.
        case damaged
        /// It cannot be reached now (gone, its folder unmounted, not readable): said, and passed
        /// over, but kept in the queue (and the resume state) for when it is back.
        case unreachable
    }

    private func prepare(_ item: QueueItem, readAhead: Song? = nil) -> Preparation {
        let preparation = prepareSong(item, readAhead: readAhead)
        if case .ready = preparation {} else { hasPassedOverFiles = true }
        return preparation
    }

    private func prepareSong(_ item: QueueItem, readAhead: Song?) -> Preparation {
        do throws(SMFFileError) {
            let song: Song
            if let known = readAhead ?? preloadedSongs[item] {
                song = known
            } else if let file = item.file {
                song = Song(file: try SMFReader().read(path: file).file)
            } else {
                // Standard input was read by the command, which did not hand its song over.
                onProblem("\(item.displayName): no song was read from it")
                return .damaged
            }
            let sound: SongSoundSource.Sound
            switch soundSource.sound(of: song, at: item.file) {
            case .success(let found): sound = found
            case .failure(let problem):
                onProblem("\(item.displayName): \(problem)")
                return .damaged
            }
            var songSynthesizer = synthesizer
            // A song with its own bank or settings plays on a synthesizer of its own: the stack's
            // samples come from FluidSynth's cache; it shows its keys and channels through the
            // main one's and takes the listener's changes from it.
            if sound.settings != synthesizer.configuration || sound.soundFonts != synthesizer.soundFonts {
                do {
                    songSynthesizer = try Synthesizer(settings: sound.settings, soundFonts: sound.soundFonts, lead: synthesizer)
                } catch {
                    // A SoundFont gone since the player loaded it (deleted, its disk unmounted):
                    // the song is fine, and plays once it is back.
                    if case .notASoundFont(let path, _) = error, FileStamp(ofFileAt: path) == nil {
                        if goneSoundFonts.insert(path).inserted {
                            onProblem(
                                "\(path.text): the SoundFont is gone (deleted, or its disk unmounted): songs that need a synthesizer of their own are passed over until it is back"
                            )
                        }
                        return .unreachable
                    }
                    onProblem("\(item.displayName): \(error)")
                    return .damaged
                }
                if let problem = songSynthesizer.songBankProblem { onProblem(problem.description) }
            }
            let sequencer = Sequencer(song: song, synthesizer: songSynthesizer, loops: sound.loops)
            if !sound.loops.isAsWritten { warnOfLoops(sequencer.loopFinding, item: item) }
            let playing = splitsSongs ? splitSong(sequencer) ?? PlayingSong(sequencer) : PlayingSong(sequencer)
            // nil text encoding in a song's settings: "auto", decided from the song's own texts.
            let textDecoding = sound.own.map { $0.textEncoding.map(TextDecoding.init(forcing:)) ?? TextDecoding(detectingIn: song.file) }
            var prepared = PreparedSong(song: playing, textDecoding: textDecoding)
            if let file = item.file { bringToLoudness(&prepared, file: file, sound: sound) }
            return .ready(prepared)
        } catch {
            guard case .unreadable(let path, _) = error else {
                onProblem(error.description)
                return .damaged
            }
            reportUnreachable(path, error)
            return .unreachable
        }
    }

    /// A file that cannot be reached is said, unless its folder is gone (a disk unmounted, a
    /// folder moved away): that is said once, for all the folder's songs.
    private func reportUnreachable(_ path: FilePath, _ error: SMFFileError) {
        // A name alone is in the current folder.
        let folder = path.removingLastComponent().isEmpty ? FilePath(".") : path.removingLastComponent()
        guard FileStamp(ofFileAt: folder) == nil else {
            onProblem(error.description)
            return
        }
        if unreachableFolders.insert(folder).inserted {
            onProblem(
                "\(path.text): its folder is gone (a disk unmounted, or the folder moved or deleted); the songs in \(folder.text) are passed over"
            )
        }
    }

    /// Starts the song at the gain that brings it to the loudness target when its loudness is
    /// known (as its settings render it: as written, the listener's changes aside); else at no
    /// gain, asking for it to be measured, after which it ramps (``absorbMeasurements(sounding:)``).
    /// With `--loudness folder`, the gain is its folder's once the folder's loudness is known (every
    /// song of the folder measured); until then the song's own, as an estimate.
    private func bringToLoudness(_ prepared: inout PreparedSong, file: FilePath, sound: SongSoundSource.Sound) {
        // A song too long to measure (days of silence from a damaged file) plays at no gain.
        guard let loudness, expectsMemory, !prepared.song.whole.song.isTooLongToRender,
            let content = SongSoundKey.content(ofSongAt: file)
        else { return }
        let key = SongSoundKey(
            content: content, settings: sound.settings, soundFonts: sound.soundFonts, performance: Performance(), loops: sound.loops)
        prepared.loudnessKey = key
        let request = BackgroundLoudness.Request(
            key: key, song: prepared.song.whole.song, path: file, settings: sound.settings, soundFonts: sound.soundFonts, loops: sound.loops)
        if let loudnessMemory {
            prepared.unityLoudness = loudnessMemory.loudness(of: key)
            if prepared.unityLoudness == nil { heldMeasurements.append(.song(request)) }
        } else {
            awaitingMemory.append(request)
        }
        if loudness.folderSongs != nil {
            let folder = file.removingLastComponent()
            prepared.folder = folder
            if case .some(.some(let known)) = folderLoudness[folder] {
                prepared.levelledBy = .folder(known)
            } else if askedFolders.insert(folder).inserted {
                heldMeasurements.append(.folder(folder))
            }
        }
        if case .folder(let known) = prepared.levelledBy {
            prepared.song.startLoudnessGain(at: loudness.target.gain(forUnityLoudness: known))
        } else if let known = prepared.unityLoudness {
            prepared.levelledBy = .song
            prepared.song.startLoudnessGain(at: loudness.target.gain(forUnityLoudness: known))
        }
    }

    /// Hands the songs and folders to measure to the background once sound is out (`sounding`),
    /// and takes in what it measured: each loaded song it was for ramps to its gain.
    private func absorbMeasurements(sounding: Bool) {
        if sounding, !hasStartedOpeningMemory, let loudness {
            hasStartedOpeningMemory = true
            let problems = loudnessProblems
            openingMemory = BackgroundWork {
                // Without libebur128 (opened at its first use) nothing can be measured: said once,
                // and the songs play as they sound, as when the memory cannot be opened.
                if let reason = LoudnessMeter.loadLibrary() {
                    problems.add("songs play as they sound, not brought to one loudness: \(reason)")
                    return nil
                }
                return loudness.openMemory { problems.add($0) }
            }
        }
        adoptMemoryOnceOpen()
        loudnessProblems.take().forEach(onProblem)
        guard let loudness, let backgroundLoudness else { return }
        if sounding, !heldMeasurements.isEmpty {
            heldMeasurements.forEach(backgroundLoudness.request)
            heldMeasurements = []
        }
        let measured = backgroundLoudness.takeMeasured()
        for (key, songLoudness) in measured.songs { learn(songLoudness, of: key, target: loudness.target) }
        for (folder, folderLoudness) in measured.folders {
            self.folderLoudness[folder] = folderLoudness
            // A folder of silence only: its songs stay as they are.
            guard let folderLoudness else { continue }
            for (generation, song) in loaded where song.folder == folder {
                loaded[generation]?.levelledBy = .folder(folderLoudness)
                engine.post(.loudnessGain(loudness.target.gain(forUnityLoudness: folderLoudness), generation: generation))
            }
        }
    }

    /// Whether songs' loudness is (or will be) kept: the memory is open, opening, or not started
    /// yet; false once it could not be opened.
    private var expectsMemory: Bool {
        loudnessMemory != nil || openingMemory != nil || (loudness != nil && !hasStartedOpeningMemory)
    }

    /// Takes the memory once it is open, and with it the background measurer; the songs prepared
    /// before then are looked up in it: a song it knows moves to its gain (within 50 ms, this
    /// early: ``PlayingSong/rampLoudnessGain(to:)``), one it does not is measured.
    private func adoptMemoryOnceOpen() {
        guard let opening = openingMemory, opening.isDone else { return }
        openingMemory = nil
        let awaiting = awaitingMemory
        awaitingMemory = []
        guard let loudness, let memory = opening.value() else { return }
        loudnessMemory = memory
        backgroundLoudness = BackgroundLoudness(memory: memory, sounds: soundSource, folderSongs: loudness.folderSongs)
        for request in awaiting {
            guard let known = memory.loudness(of: request.key) else {
                heldMeasurements.append(.song(request))
                continue
            }
            learn(known, of: request.key, target: loudness.target)
        }
    }

    /// A song's loudness (at a synthesizer gain of 1; nil: silence) learned, from the memory or a
    /// measurement: each loaded song with that key and none yet takes it, and one not levelled by
    /// its folder ramps to its own gain (the best there is until its folder is known).
    private func learn(_ songLoudness: Loudness?, of key: SongSoundKey, target: LoudnessTarget) {
        for (generation, song) in loaded where song.loudnessKey == key && song.unityLoudness == nil {
            loaded[generation]?.unityLoudness = songLoudness
            guard song.levelledBy == nil, let songLoudness else { continue }
            loaded[generation]?.levelledBy = .song
            engine.post(.loudnessGain(target.gain(forUnityLoudness: songLoudness), generation: generation))
        }
    }

    /// The loudness of the song of `generation` and its gain, for the snapshot; nil when songs are
    /// not brought to a loudness.
    private func playedLoudness(of song: LoadedSong?) -> PlayedLoudness? {
        guard let loudness, expectsMemory, let song else { return nil }
        let atGain = song.unityLoudness.map { $0.integratedLUFS + Loudness.decibels(ofGain: song.song.whole.synthesizer.configuration.gain) }
        let gain: Float
        switch song.levelledBy {
        case nil: gain = 1
        case .song: gain = loudness.target.gain(forUnityLoudness: song.unityLoudness)
        case .folder(let folderLoudness): gain = loudness.target.gain(forUnityLoudness: folderLoudness)
        }
        return PlayedLoudness(
            integratedLUFS: atGain, gainDecibels: Loudness.decibels(ofGain: Double(gain)), isFolderGain: song.levelledBy?.isFolder ?? false)
    }

    /// A song whose marks make no loop is said so each time; one without marks once (in a
    /// folder of songs without any, a line for each would bury the rest).
    private func warnOfLoops(_ finding: SongLoop.Finding, item: QueueItem) {
        if finding.isUnmarked {
            guard !hasWarnedOfUnmarkedSongs else { return }
            hasWarnedOfUnmarkedSongs = true
            onProblem("\(item.displayName): \(SongLoop.noMarks) (said once for every song without them)")
        } else if let problem = finding.problem {
            onProblem("\(item.displayName): \(problem)")
        }
    }

    /// The song of `whole` split across the synthesizers, its keys weighed by the probe; nil when
    /// it does not split (a song with one key) or the synthesizers or threads cannot be made
    /// (then reported once, and no song is split again).
    private func splitSong(_ whole: Sequencer) -> PlayingSong? {
        guard var equipment = makeSplitEquipment() else { return nil }
        var first = synthesizer
        if whole.synthesizer !== synthesizer {
            // A song with its own bank: its parts and its probe play that bank too, on synthesizers
            // made for it (the threads are the same). One that cannot be made leaves it whole.
            guard let own = try? splitSynthesizers(like: whole.synthesizer, parts: equipment.synthesizers.count) else { return nil }
            first = whole.synthesizer
            equipment.synthesizers = own.parts
            equipment.probe = own.probe
        }
        let split = NoteSplit(loads: whole.noteLoads(probe: equipment.probe), count: equipment.synthesizers.count + 1)
        guard split.partCount > 1 else { return nil }
        let parts = (0..<split.partCount).map { part in
            Sequencer(partOf: whole, synthesizer: part == 0 ? first : equipment.synthesizers[part - 1], part: part, of: split)
        }
        return PlayingSong(whole, parts: parts, threads: equipment.threads)
    }

    /// The synthesizers after the first for splitting a song that plays on `songs` (the main one,
    /// or a song's with its own bank), with its SoundFonts, showing their keys through the main
    /// one's; and the probe that weighs the song's notes, without effects.
    private func splitSynthesizers(like songs: Synthesizer, parts: Int) throws(SynthesisError) -> (parts: [Synthesizer], probe: Synthesizer) {
        var probeSettings = songs.configuration
        probeSettings.reverb = nil
        probeSettings.chorus = nil
        let probe = try Synthesizer(settings: probeSettings, soundFonts: songs.soundFonts)
        var made: [Synthesizer] = []
        for _ in 0..<parts { made.append(try Synthesizer(settings: songs.configuration, soundFonts: songs.soundFonts, lead: synthesizer)) }
        return (made, probe)
    }

    private func makeSplitEquipment() -> (synthesizers: [Synthesizer], threads: PartThreads, probe: Synthesizer)? {
        if let splitEquipment { return splitEquipment }
        guard splitsSongs else { return nil }
        do {
            let (synthesizers, probe) = try splitSynthesizers(like: synthesizer, parts: split.cores - 1)
            guard let threads = PartThreads(count: synthesizers.count) else {
                throw SynthesisError.cannotCreateSynthesizer(reason: "the system would not start a thread for each part")
            }
            splitEquipment = (synthesizers, threads, probe)
            return splitEquipment
        } catch {
            splitsSongs = false
            cannotSplit = true
            onProblem("songs play on one core: no song can be split across \(split.cores) (\(error))")
            return nil
        }
    }

    /// With `.whenNeeded`, when one synthesizer cannot keep up (`renderLoad` at or above
    /// ``overloadedRenderLoad``, or the output ran dry at ``strainedRenderLoad`` or above): splits
    /// the song playing, and every song after it.
    func splitIfOverloaded(renderLoad: Double, underrunsSinceLastLook: Int) {
        let position = engine.position
        let isOverloaded = renderLoad >= Self.overloadedRenderLoad || underrunsSinceLastLook > 0 && renderLoad >= Self.strainedRenderLoad
        guard case .whenNeeded = split, split.cores > 1, !splitsSongs, !cannotSplit, isOverloaded,
            !isStopped, !isPaused, position.generation == playingGeneration
        else { return }
        splitsSongs = true
        splitPlayingSong(generation: position.generation)
    }

    /// One synthesizer cannot keep up with the song playing: it goes on split across the
    /// synthesizers a little ahead of where the engine is (its notes struck again there, see
    /// ``planSwitch(of:generation:)``), and the song prepared to follow is prepared again, split.
    private func splitPlayingSong(generation: Int) {
        guard let entry = loaded[generation], let song = splitSong(entry.song.whole) else { return }
        guard let plan = planSwitch(of: entry.song.whole, generation: generation) else {
            prepareNextAgain()
            return
        }
        let number = nextSeekNumber
        nextSeekNumber += 1
        loaded[generation]?.song = song
        engine.post(.replace(song, plan: plan, generation: generation, number: number, fadeOut: !isOutputIdle))
        prepareNextAgain()
    }

    /// How far ahead of the engine a split takes over, at the least: the engine must get the
    /// command (at its next buffer) before it renders past the place.
    static let switchLeadSeconds = 0.2

    /// Where a song split while it plays takes over: ahead of the engine by ``switchLeadSeconds``
    /// (or two output buffers, if longer), where the engine waits for it, so that nothing is heard
    /// twice or skipped. Planned once the synthesizers are made and the song probed (a while, a
    /// SoundFont's load the first time), and again further ahead if the engine passed the place
    /// while it was planned (a dense song's plan reads millions of events). Across a loop's end
    /// or after the song's, the engine would not get there: the split song takes over where the
    /// engine is, and what it rendered since the plan's place is heard again. Nil once the song
    /// is over.
    private func planSwitch(of whole: Sequencer, generation: Int) -> SeekPlan? {
        let outputBufferFrames = outputLatencySeconds * sampleRate
        var lead = max(Self.switchLeadSeconds * sampleRate, 2 * outputBufferFrames)
        for _ in 0..<3 {
            let position = engine.position
            guard position.generation == generation, !position.hasEnded else { return nil }
            let tempo = synthesizer.performance.tempo
            let target = position.frame + Int64((lead * tempo).rounded())
            let jumpsBack = whole.loopEndFrame.map { position.frame < $0 && target >= $0 } ?? false
            guard !jumpsBack, target < whole.endFrame else {
                return whole.plan(seekingTo: position.frame, chaseNotes: true)
            }
            let started = ContinuousClock.now
            let plan = whole.plan(seekingTo: target, chaseNotes: true)
            let now = engine.position
            guard now.generation == generation, !now.hasEnded else { return nil }
            if now.frame + Int64((outputBufferFrames * tempo).rounded()) < target { return plan }
            let planning = (ContinuousClock.now - started) / .seconds(1)
            lead = 2 * (lead + planning * sampleRate)
        }
        let position = engine.position
        guard position.generation == generation, !position.hasEnded else { return nil }
        return whole.plan(seekingTo: position.frame, chaseNotes: true)
    }

    private func register(_ prepared: PreparedSong, place: Int) -> Int {
        defer { nextGeneration += 1 }
        let song = prepared.song.whole.song
        loaded[nextGeneration] = LoadedSong(
            song: prepared.song, place: place, noteRange: song.noteRange, meter: MeterMap(song: song),
            usedChannels: song.usedChannels, textDecoding: prepared.textDecoding, loudnessKey: prepared.loudnessKey,
            unityLoudness: prepared.unityLoudness, folder: prepared.folder, levelledBy: prepared.levelledBy)
        return nextGeneration
    }
}
