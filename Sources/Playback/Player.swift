#if canImport(Glibc)
import Glibc
#endif
import SMF
import Synthesis

/// Plays a queue of MIDI files through a real-time sink: the interface's side.
///
/// Every method is called from one thread (the interface's); the audio is
/// rendered by ``PlaybackEngine`` on the sink's thread.
public final class Player {
    public private(set) var queue: PlayQueue
    public let chaseNotes: Bool
    private let synthesizer: Synthesizer
    private let engine: PlaybackEngine
    private var sink: (any PlaybackSink)!
    private let sampleRate: Double
    /// Reports a file that could not be played (and was skipped).
    private let onProblem: (String) -> Void

    /// Songs handed to the engine, by generation; kept so that the audio thread never frees one.
    private var loaded: [Int: (sequencer: Sequencer, place: Int)] = [:]
    private var nextGeneration = 0
    /// The generation prepared to follow the current one, if any.
    private var preparedGeneration: Int?
    private var isPaused = false

    /// - Parameter makeSink: opens the output with the render closure it must call for every buffer.
    public init(synthesizer: Synthesizer, queue: PlayQueue, chaseNotes: Bool, tailLimitSeconds: Double,
                makeSink: (@escaping (UnsafeMutablePointer<Float>, Int) -> Void) throws -> any PlaybackSink,
                onProblem: @escaping (String) -> Void) throws {
        self.synthesizer = synthesizer
        self.queue = queue
        self.chaseNotes = chaseNotes
        self.onProblem = onProblem
        sampleRate = synthesizer.configuration.sampleRate
        let engine = PlaybackEngine(tailLimitSeconds: tailLimitSeconds, sampleRate: sampleRate)
        self.engine = engine
        sink = try makeSink { buffer, frames in engine.render(buffer, frames: frames) }
    }

    deinit {
        sink?.close()
    }

    /// Starts the queue's current file, at `seconds` into it.
    public func start(atSeconds seconds: Double = 0) {
        guard loadCurrent() else { return }
        if seconds > 0 { seek(toSeconds: seconds) }
        // Sinks open paused, with their buffer already filled.
        sink.resume()
    }

    /// What is being heard. Call it regularly (10–20 times a second): it also
    /// moves the queue on when a song ends and prepares the next one.
    public func update() -> PlayerSnapshot {
        let position = engine.position
        if let prepared = preparedGeneration, position.generation == prepared {
            // The engine moved on to the prepared song by itself.
            preparedGeneration = nil
            queue.move(toPlace: loaded[prepared]!.place)
        }
        loaded = loaded.filter { $0.key >= position.generation }
        if preparedGeneration == nil, !position.hasEnded || position.generation < 0 { prepareNext(after: position.generation) }
        let current = loaded[position.generation]
        let latencyFrames = Int64((sink.latencySeconds * sampleRate).rounded())
        let heardFrame = max(0, position.frame - (isPaused ? 0 : latencyFrames))
        let song = current?.sequencer.song
        let heardSeconds = min(Double(heardFrame) / sampleRate, song?.duration ?? 0)
        let tempo = song.flatMap { song in
            song.tempoMap.microsecondsPerQuarterNote(atTick: song.tempoMap.tick(atSeconds: heardSeconds)).map { 60_000_000 / Double($0) }
        }
        return PlayerSnapshot(
            file: current.map { queue.items[queue.order[$0.place]] }, place: current?.place ?? queue.place, queueLength: queue.order.count,
            heardSeconds: heardSeconds, durationSeconds: song?.duration ?? 0, isPaused: isPaused, tempoBPM: tempo,
            hasEnded: position.hasEnded && preparedGeneration == nil && (position.generation >= 0 || queue.current == nil),
            underruns: sink.underrunCount)
    }

    /// Why the output stopped working, if it did.
    public var sinkFailure: (any Error)? { sink.failure }

    public func togglePause() {
        isPaused ? sink.resume() : sink.pause()
        isPaused.toggle()
    }

    /// Seeks relative to what is being heard.
    public func seek(bySeconds offset: Double) {
        let snapshot = update()
        seek(toSeconds: max(0, snapshot.heardSeconds + offset))
    }

    public func seek(toSeconds seconds: Double) {
        sink.flush { engine.post(.seek(frame: Int64((seconds * sampleRate).rounded()), chaseNotes: chaseNotes)) }
    }

    public func restart() {
        seek(toSeconds: 0)
    }

    public func next() {
        guard queue.next() else { return }
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

    /// Releases every note and lets the output play out briefly, so nothing is cut or left hanging.
    public func stop() {
        engine.post(.releaseAll)
        if isPaused { sink.resume() }
        // The releases must be rendered before the drain, which stops rendering.
        var release = timespec(tv_sec: 0, tv_nsec: 200_000_000)
        var remaining = timespec()
        while nanosleep(&release, &remaining) != 0 { release = remaining }
        sink.drain(atMostSeconds: 0.3)
        sink.close()
    }

    /// Loads the queue's current file now, skipping files that cannot be read.
    @discardableResult
    private func loadCurrent() -> Bool {
        preparedGeneration = nil
        while let file = queue.current {
            if let sequencer = prepare(file) {
                let generation = register(sequencer, place: queue.place)
                sink.flush { engine.post(.load(sequencer, generation: generation)) }
                return true
            }
            queue.removeCurrent()
        }
        return false
    }

    /// Prepares the file after the current one, so that the engine can go on without a gap.
    private func prepareNext(after generation: Int) {
        guard let current = loaded[generation] else { return }
        var upcoming = queue
        upcoming.move(toPlace: current.place)
        while upcoming.advanceAfterEnd(), let file = upcoming.current {
            if let sequencer = prepare(file) {
                let next = register(sequencer, place: upcoming.place)
                preparedGeneration = next
                engine.post(.queueNext(sequencer, generation: next))
                return
            }
            queue.remove(place: upcoming.place)
            upcoming = queue
            upcoming.move(toPlace: current.place)
        }
        // Nothing follows: the queue runs out after this song.
        preparedGeneration = nil
    }

    private func prepare(_ file: String) -> Sequencer? {
        do {
            return Sequencer(song: Song(file: try SMFReader().read(path: file).file), synthesizer: synthesizer)
        } catch {
            onProblem(error.description)
            return nil
        }
    }

    private func register(_ sequencer: Sequencer, place: Int) -> Int {
        defer { nextGeneration += 1 }
        loaded[nextGeneration] = (sequencer, place)
        return nextGeneration
    }
}
