#if canImport(Glibc)
import Glibc
#endif

/// The OpenMP threads FluidSynth's SoundFont loader may use. Built with OpenMP (as Debian builds
/// it), FluidSynth loads a SoundFont's samples in one OpenMP task each: worth it for an .sf3,
/// whose samples are each decoded from Ogg Vorbis, not for an .sf2, whose samples are read in one
/// piece and only scanned. There, starting the team costs more than the tasks save, and its
/// threads spin for the CPU the load runs on: TimGM6mb loaded in 20.0–20.9 ms on one thread
/// against 20.4–26.2 ms by default (12 loads each; FluidR3_GM the same either way).
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
