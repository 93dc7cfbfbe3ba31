import AudioOutput
import Synthesis
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Threads that render the parts of a split song (``PlayingSong``) beside the audio thread, in
/// live play, chunk by chunk: the audio thread hands each part thread its part, renders the first
/// part itself, waits for the others and adds their chunks to its own.
///
/// Threads: the audio thread and the part threads meet through POSIX semaphores, two crossings
/// per chunk (a post to start, a post when done), with no lock and no allocation. The audio
/// thread waits as long as the slowest part takes beyond its own, which is the point: each part
/// has about 1/n of the song's voices. The part threads ask for the audio thread's real-time
/// policy: at normal priority, any busy process would hold the audio thread up through them.
/// Unlike ``SplitRendering``, nothing is rendered ahead: a listener's seek, pause or change of
/// tempo is heard from the next buffer, as with one synthesizer.
final class PartThreads {
    /// Frames a part renders at a time; a longer buffer is rendered in several chunks.
    static let chunkFrames = 4096

    /// Parts beyond the first that can be rendered at once: one thread each.
    let count: Int
    private let crew: Crew
    private let threads: [WorkerThreads.StartedThread]

    /// Starts `count` part threads; nil when the system will not make them.
    init?(count: Int) {
        let crew = Crew(count: count)
        var threads: [WorkerThreads.StartedThread] = []
        for worker in 0..<count {
            guard let thread = WorkerThreads.start({ crew.serve(worker) }) else {
                crew.close()
                threads.forEach { $0.join() }
                return nil
            }
            threads.append(thread)
        }
        self.count = count
        self.crew = crew
        self.threads = threads
    }

    deinit {
        crew.close()
        threads.forEach { $0.join() }
    }

    /// Renders `frames` frames of every part of `song` into `buffer`, summed: the first part on
    /// the calling (audio) thread, the others on the part threads. With `releasesOnly`, the
    /// parts' synthesizers render what sounds without their sequencers (after every note was
    /// released). `song` must have at most `count` + 1 parts.
    func render(_ song: PlayingSong, into buffer: UnsafeMutablePointer<Float>, frames: Int, releasesOnly: Bool = false) {
        let helpers = song.parts.count - 1
        precondition(helpers <= count, "more parts than part threads")
        var done = 0
        while done < frames {
            let chunk = min(Self.chunkFrames, frames - done)
            // One tempo for every part: read apart, a change between the reads would set them apart.
            let tempo = song.whole.synthesizer.performance.tempo
            crew.job = Crew.Job(song: Unmanaged.passUnretained(song), frames: chunk, tempo: tempo, releasesOnly: releasesOnly)
            for worker in 0..<helpers { crew.startSignals[worker].post() }
            Crew.render(part: 0, of: song, into: buffer + 2 * done, job: crew.job!)
            for _ in 0..<helpers { crew.finishedSignal.wait() }
            let output = buffer + 2 * done
            for worker in 0..<helpers {
                let part = crew.buffer(of: worker)
                for index in 0..<2 * chunk { output[index] += part[index] }
            }
            done += chunk
        }
    }

    /// What the threads share: the semaphores, each part thread's buffer and the job at hand. Kept
    /// apart from `PartThreads` so that the threads never hold the object whose `deinit` joins them.
    private final class Crew: @unchecked Sendable {
        // @unchecked: the job and each part's buffer are handed between the audio thread and the
        // part threads by the semaphores it owns (a post to start, a post when done).
        /// One chunk of one song for every part; written by the audio thread before it posts the
        /// start signals, read by the part threads after their wait (the semaphores order them).
        struct Job {
            // Unretained: retaining here would make the audio thread release songs, and maybe free one.
            var song: Unmanaged<PlayingSong>
            var frames: Int
            var tempo: Double
            var releasesOnly: Bool
        }

        let startSignals: [CountingSemaphore]
        let finishedSignal = CountingSemaphore()
        private let buffers: UnsafeMutableBufferPointer<Float>
        var job: Job?
        private var isClosing = false

        init(count: Int) {
            startSignals = (0..<count).map { _ in CountingSemaphore() }
            buffers = .allocate(capacity: max(1, count) * PartThreads.chunkFrames * 2)
        }

        deinit {
            buffers.deallocate()
        }

        func buffer(of worker: Int) -> UnsafeMutablePointer<Float> {
            buffers.baseAddress! + worker * PartThreads.chunkFrames * 2
        }

        /// A part thread's life: part `worker` + 1 of each job, until closed.
        func serve(_ worker: Int) {
            _ = RealtimeScheduling.requestForCurrentThread()
            // A part thread renders and does nothing else: it is an audio thread for good.
            _ = AudioThread.Mark()
            while true {
                startSignals[worker].wait()
                if isClosing { return }
                Self.render(part: worker + 1, of: job!.song.takeUnretainedValue(), into: buffer(of: worker), job: job!)
                finishedSignal.post()
            }
        }

        static func render(part: Int, of song: PlayingSong, into buffer: UnsafeMutablePointer<Float>, job: Job) {
            let sequencer = song.parts[part]
            if job.releasesOnly {
                sequencer.synthesizer.render(into: buffer, frames: job.frames)
            } else {
                sequencer.render(into: buffer, frames: job.frames, tempo: job.tempo)
            }
        }

        /// Ends every part thread (they are waiting: no job is under way).
        func close() {
            isClosing = true
            for signal in startSignals { signal.post() }
        }
    }
}
