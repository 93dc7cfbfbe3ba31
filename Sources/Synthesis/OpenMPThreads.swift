#if canImport(Glibc)
    import Glibc
#endif

/// The OpenMP threads FluidSynth's SoundFont loader may use. Built with OpenMP (as Debian builds
/// it), FluidSynth loads a SoundFont's samples in one OpenMP task each: for an .sf3 each decodes
/// its sample from Ogg Vorbis, for an .sf2 each scans its sample for its loudness in the loop
/// (`fluid_voice_optimize_sample`). On a small .sf2 starting the team costs more than the tasks
/// save, and its threads spin for the CPU the load runs on: TimGM6mb loaded in 20.0–20.9 ms on
/// one thread against 20.4–26.2 ms by default (12 loads each), and `smfplay render` of a chord
/// took the same time with 5–8 ms more CPU. A large one has the work to share: the scans are a
/// third of FluidR3_GM's load (148 MB), which took 135–177 ms in `smfplay play` with the team
/// against 157–196 ms on one thread (10 launches each, alternating with fluidsynth's).
///
/// libgomp comes with FluidSynth, when it does, so its functions are looked up at run time; a
/// FluidSynth built without OpenMP leaves nothing to do.
enum OpenMPThreads {
    private typealias SetThreads = @convention(c) (Int32) -> Void
    private typealias GetThreads = @convention(c) () -> Int32

    private static let functions: (set: SetThreads, get: GetThreads)? = {
        // RTLD_DEFAULT: every library loaded, libgomp among them when FluidSynth needs it.
        guard let set = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_num_threads"),
            let get = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_get_max_threads")
        else { return nil }
        return (unsafeBitCast(set, to: SetThreads.self), unsafeBitCast(get, to: GetThreads.self))
    }()

    /// Whether loading a SoundFont of `format` and `byteCount` bytes is worth OpenMP's team: an
    /// .sf3 always, an .sf2 from 16 MB (the scans take about 0.5 ms a MB, so the team saves 4 ms
    /// there and costs 1–3 ms to start).
    static func shareLoad(of format: SoundFontFormat, byteCount: Int64) -> Bool {
        format == .compressed || byteCount >= 16 * 1024 * 1024
    }

    /// Runs `body` with OpenMP's parallel regions on this thread kept to the thread itself (the
    /// setting is the calling thread's own), then puts the setting back.
    static func one<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard let functions else { return try body() }
        let before = functions.get()
        functions.set(1)
        defer { functions.set(before) }
        return try body()
    }
}
