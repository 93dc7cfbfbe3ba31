import SystemPackage
import WorkerThreads

/// A synthesizer's SoundFonts loaded before the command that plays has read its command line:
/// `smfplay play` starts one first thing, from a glance at its arguments, so that the 25 ms or
/// more of a SoundFont's load overlap the reading of the command line (the first sound comes
/// that much sooner). A thread of its own makes the FluidSynth synthesizer at once, at the sample
/// rate expected, while the caller works out which SoundFonts to load (reading the configuration
/// takes 1–2 ms, making the first synthesizer 5), then loads them.
///
/// The command passes it down to the ``Synthesizer`` it makes (``Synthesizer/init(settings:soundFonts:lead:preload:)``):
/// the first made for the same sample rate and SoundFonts takes the instance loaded, waiting for
/// the load to end if need be; one made for anything else makes its own, and the one loaded ahead
/// is freed. A preload that fails stays silent: the synthesizer made for real meets the same
/// problem and reports it.
public final class SynthesizerPreload: @unchecked Sendable {
    // @unchecked: `state` and `handOver` are read and written only under `condition`'s lock,
    // which it owns.
    private enum State {
        /// The recipe is being worked out, or the SoundFonts are loading.
        case loading
        /// Loaded (nil when there was nothing to load, or it could not be).
        case loaded(FluidSynthInstance?)
        /// Taken (or freed).
        case taken
    }

    /// The recipe on its way from the caller to the loading thread.
    private enum HandOver {
        case awaited
        /// Nil: nothing to load.
        case given(FluidSynthInstance.Recipe?)
    }

    private var state = State.loading
    private var handOver = HandOver.awaited
    private let condition = ThreadCondition()

    /// Starts a thread that makes a synthesizer at `expectedSampleRate`, then calls `recipe` on
    /// this thread (it may read files: the configuration, the folders SoundFonts are looked for
    /// in) and, unless it returns nil, has that thread load the SoundFonts it names, at the sample
    /// rate it says (a synthesizer made at another rate is made again).
    public init(expectedSampleRate: Double, _ recipe: () -> (sampleRate: Double, soundFonts: SoundFontStack)?) {
        // FluidSynth is opened here, before the thread starts and before this one goes on: opened
        // beside a thread at work (the command line being read), its ~50 libraries took 7 ms
        // instead of 4.5 (each mapping waited on the other thread's page faults), and it is on the
        // way to the first sound; a failure is met again, and said, where the synthesizer is made.
        try? FluidSynthInstance.loadLibrary()
        let started = WorkerThreads.detach { [self] in
            let early = try? FluidSynthInstance(sampleRate: expectedSampleRate)
            let given: FluidSynthInstance.Recipe? = condition.withLock {
                while case .awaited = handOver { condition.wait() }
                guard case .given(let recipe) = handOver else { return nil }
                return recipe
            }
            guard let given else { return finish(nil) }
            let instance =
                early?.recipe.sampleRate == given.sampleRate
                ? early : try? FluidSynthInstance(sampleRate: given.sampleRate)
            do {
                try instance?.load(given.soundFonts)
                finish(instance)
            } catch {
                finish(nil)
            }
        }
        guard started else {
            finish(nil)
            return
        }
        let worked = recipe().map { FluidSynthInstance.Recipe(sampleRate: $0.sampleRate, soundFonts: $0.soundFonts.allPaths) }
        condition.withLock {
            handOver = .given(worked)
            condition.broadcast()
        }
    }

    private func finish(_ instance: FluidSynthInstance?) {
        condition.withLock {
            state = .loaded(instance)
            condition.broadcast()
        }
    }

    /// The instance loaded ahead, if it matches `recipe`, once it is loaded; nil otherwise.
    /// Either way, nothing stays preloaded afterwards.
    func take(_ recipe: FluidSynthInstance.Recipe) -> FluidSynthInstance? {
        let loaded: FluidSynthInstance? = condition.withLock {
            while case .loading = state { condition.wait() }
            defer { state = .taken }
            if case .loaded(let instance) = state { return instance }
            return nil
        }
        // One that does not match is freed here, outside the lock.
        return loaded?.recipe == recipe ? loaded : nil
    }
}
