import SystemPackage
import WorkerThreads

/// A synthesizer's SoundFonts loaded before the command that plays has read its command line:
/// `smfplay play` starts it first thing, on a thread of its own, from a glance at its arguments,
/// so that the 25 ms or more of a SoundFont's load overlap the reading of the command line and
/// the configuration (the first sound comes that much sooner).
///
/// The first ``Synthesizer`` made for the same sample rate and SoundFonts takes the instance
/// loaded, waiting for the load to end if need be; a synthesizer made for anything else makes its
/// own, and the one loaded ahead is freed. A preload that fails stays silent: the synthesizer made
/// for real meets the same problem and reports it.
public enum SynthesizerPreload {
    private enum State {
        /// None started, or the instance taken or freed.
        case none
        /// Started: the recipe is being worked out, or the SoundFonts are loading.
        case loading
        /// Loaded (nil when there was nothing to load, or it could not be).
        case loaded(FluidSynthInstance?)
    }

    /// Read and written only under `condition`'s lock.
    nonisolated(unsafe) private static var state = State.none
    private static let condition = ThreadCondition()

    /// Starts a thread that calls `recipe` (which may read files: the configuration, the folders
    /// SoundFonts are looked for in) and, unless it returns nil, loads the SoundFonts it names at
    /// the sample rate it says. From this call on, a synthesizer being made waits for that thread.
    public static func start(_ recipe: @escaping () -> (sampleRate: Double, soundFonts: SoundFontStack)?) {
        // Announced before the thread starts, so that no synthesizer can miss it.
        condition.withLock { state = .loading }
        let started = WorkerThreads.detach {
            let instance = recipe().flatMap { recipe in
                try? FluidSynthInstance(.init(sampleRate: recipe.sampleRate, soundFonts: recipe.soundFonts.allPaths))
            }
            finish(instance)
        }
        if !started { finish(nil) }
    }

    private static func finish(_ instance: FluidSynthInstance?) {
        condition.withLock {
            state = .loaded(instance)
            condition.broadcast()
        }
    }

    /// The instance loaded ahead, if one was announced and it matches `recipe`, once it is
    /// loaded; nil otherwise. Either way, nothing stays preloaded afterwards.
    static func take(_ recipe: FluidSynthInstance.Recipe) -> FluidSynthInstance? {
        let loaded: FluidSynthInstance? = condition.withLock {
            while case .loading = state { condition.wait() }
            defer { state = .none }
            if case .loaded(let instance) = state { return instance }
            return nil
        }
        // One that does not match is freed here, outside the lock.
        return loaded?.recipe == recipe ? loaded : nil
    }
}
