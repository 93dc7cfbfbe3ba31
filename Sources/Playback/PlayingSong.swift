import Synchronization
import Synthesis

/// A song as the engine plays it: one sequencer on the player's synthesizer, or the song's keys
/// split across several synthesizers (``NoteSplit``), each part's sequencer rendered on a core of
/// its own (``PartThreads``) and the parts summed; the sum sounds as one synthesizer would.
///
/// A reference type: it has identity, and the engine hands it back to the interface to be freed
/// (``RetiredObject``), never on the audio thread.
final class PlayingSong: @unchecked Sendable {
    // @unchecked: confined. Once handed to the engine, only the audio thread calls what changes it
    // (checked in debug builds); the interface reads only `whole`'s parts that never change.
    /// The whole song's sequencer: it plans seeks for every part and answers for the song. When
    /// the song is split it is not rendered itself: its synthesizer plays the first part.
    let whole: Sequencer
    /// The sequencers that render: `[whole]`, or one per part.
    let parts: [Sequencer]
    private let threads: PartThreads?
    /// The gain that brings the song to the loudness target (1: none), applied to what it renders,
    /// before the limiter. Set before the song is handed over (``startLoudnessGain(at:)``);
    /// afterwards only the audio thread moves it, towards `loudnessTarget`, by `loudnessStep` a
    /// frame: a measurement that arrives while the song plays is heard as a slow ramp, never a step.
    private(set) var loudnessGain: Float = 1
    private var loudnessTarget: Float = 1
    private var loudnessStep: Float = 0
    /// How long a ramp to a new loudness gain takes.
    static let loudnessRampSeconds = 3.0
    /// How long a ramp takes that starts in the song's first ``quickRampWindowSeconds`` as heard:
    /// so little was heard at the old gain that the new one is best reached at once (a folder's
    /// loudness worked out from songs the index knows arrives a fraction of a second in).
    static let quickRampSeconds = 0.05
    static let quickRampWindowSeconds = 0.5
    /// Output frames rendered since the song was handed over, up to the quick ramp's window.
    private var framesHeard = 0

    /// The song on one synthesizer, `whole`'s.
    init(_ whole: Sequencer) {
        self.whole = whole
        parts = [whole]
        threads = nil
    }

    /// The song split into `parts` (made from `whole` with `Sequencer(partOf:)`), which `threads`
    /// render side by side.
    init(_ whole: Sequencer, parts: [Sequencer], threads: PartThreads) {
        precondition(parts.count > 1 && parts.count <= threads.count + 1, "a split needs a part thread for each part beyond the first")
        self.whole = whole
        self.parts = parts
        self.threads = threads
    }

    deinit {
        if AudioThread.isCurrent { AudioThread.songsFreed.add(1, ordering: .relaxed) }
    }

    /// The next song frame to render.
    var position: Int64 { parts[0].position }
    var pass: Int { parts[0].pass }
    var isAtEnd: Bool { parts[0].isAtEnd }

    /// Output frames until the song reaches `frame` at the tempo now (0 once it is there).
    func outputFrames(until frame: Int64) -> Int { parts[0].outputFrames(until: frame) }

    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        AudioThread.assertCurrent("playing a song")
        if let threads {
            threads.render(self, into: buffer, frames: frames)
        } else {
            whole.render(into: buffer, frames: frames)
        }
        applyLoudnessGain(buffer, frames: frames)
    }

    /// Renders what still sounds after ``releaseAllNotes()``, without sending the song's events.
    func renderReleases(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        AudioThread.assertCurrent("playing a song")
        if let threads {
            threads.render(self, into: buffer, frames: frames, releasesOnly: true)
        } else {
            whole.synthesizer.render(into: buffer, frames: frames)
        }
        applyLoudnessGain(buffer, frames: frames)
    }

    /// The loudness gain the song starts at, before it is handed over (or before it starts).
    func startLoudnessGain(at gain: Float) {
        loudnessGain = gain
        loudnessTarget = gain
        loudnessStep = 0
    }

    /// Moves the loudness gain to `target` over ``loudnessRampSeconds`` (``quickRampSeconds`` in
    /// the song's first moments).
    func rampLoudnessGain(to target: Float) {
        AudioThread.assertCurrent("playing a song")
        loudnessTarget = target
        let sampleRate = whole.synthesizer.configuration.sampleRate
        let isEarly = Double(framesHeard) < Self.quickRampWindowSeconds * sampleRate
        let rampFrames = Float((isEarly ? Self.quickRampSeconds : Self.loudnessRampSeconds) * sampleRate)
        loudnessStep = (target - loudnessGain) / max(1, rampFrames)
    }

    /// Takes up `other`'s loudness gain where it is, and its ramp (the same song, split anew).
    func continueLoudness(of other: PlayingSong) {
        AudioThread.assertCurrent("playing a song")
        loudnessGain = other.loudnessGain
        loudnessTarget = other.loudnessTarget
        loudnessStep = other.loudnessStep
        framesHeard = other.framesHeard
    }

    private func applyLoudnessGain(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        // Counted only as far as the window: it never overflows, however long the song plays.
        if framesHeard < Int(Self.quickRampWindowSeconds * whole.synthesizer.configuration.sampleRate) { framesHeard += frames }
        var gain = loudnessGain
        if gain == loudnessTarget {
            guard gain != 1 else { return }
            for index in 0..<(2 * frames) { buffer[index] *= gain }
            return
        }
        let target = loudnessTarget
        let step = loudnessStep
        for frame in 0..<frames {
            gain += step
            if step > 0 ? gain >= target : gain <= target { gain = target }
            buffer[2 * frame] *= gain
            buffer[2 * frame + 1] *= gain
        }
        loudnessGain = gain
    }

    func rewind() {
        AudioThread.assertCurrent("playing a song")
        forEachPart { $0.rewind() }
    }

    /// Takes up `other`'s pass through the loop, going on from where it is.
    func continuePass(of other: PlayingSong) {
        AudioThread.assertCurrent("playing a song")
        forEachPart { $0.continuePass(of: other.parts[0]) }
    }

    /// Follows a plan made by ``whole``.
    func seek(following plan: SeekPlan) {
        AudioThread.assertCurrent("playing a song")
        forEachPart { $0.seek(following: plan) }
    }

    func silence() {
        AudioThread.assertCurrent("playing a song")
        forEachPart { $0.synthesizer.silence() }
    }

    func releaseAllNotes() {
        AudioThread.assertCurrent("playing a song")
        forEachPart { $0.synthesizer.releaseAllNotes() }
    }

    /// Calls `body` with each part, by index: unoptimized, a `for`-`in` loop's iterator allocates
    /// (its element accessor's frame), and the tests that check the audio thread allocates nothing
    /// run unoptimized builds.
    private func forEachPart(_ body: (Sequencer) -> Void) {
        var index = 0
        while index < parts.count {
            body(parts[index])
            index += 1
        }
    }
}
