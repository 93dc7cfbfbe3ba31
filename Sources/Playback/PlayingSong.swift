import Synthesis

/// A song as the engine plays it: one sequencer on the player's synthesizer, or the song's keys
/// split across several synthesizers (``NoteSplit``), each part's sequencer rendered on a core of
/// its own (``PartThreads``) and the parts summed; the sum sounds as one synthesizer would.
///
/// A reference type: the player keeps each one it hands the engine alive until the engine is done
/// with it, so that the audio thread never frees one.
final class PlayingSong {
    /// The whole song's sequencer: it plans seeks for every part and answers for the song. When
    /// the song is split it is not rendered itself: its synthesizer plays the first part.
    let whole: Sequencer
    /// The sequencers that render: `[whole]`, or one per part.
    let parts: [Sequencer]
    private let threads: PartThreads?

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

    /// The next song frame to render.
    var position: Int64 { parts[0].position }
    var pass: Int { parts[0].pass }
    var isAtEnd: Bool { parts[0].isAtEnd }

    /// Output frames until the song reaches `frame` at the tempo now (0 once it is there).
    func outputFrames(until frame: Int64) -> Int { parts[0].outputFrames(until: frame) }

    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if let threads {
            threads.render(self, into: buffer, frames: frames)
        } else {
            whole.render(into: buffer, frames: frames)
        }
    }

    /// Renders what still sounds after ``releaseAllNotes()``, without sending the song's events.
    func renderReleases(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if let threads {
            threads.render(self, into: buffer, frames: frames, releasesOnly: true)
        } else {
            whole.synthesizer.render(into: buffer, frames: frames)
        }
    }

    func rewind() {
        for part in parts { part.rewind() }
    }

    /// Takes up `other`'s pass through the loop, going on from where it is.
    func continuePass(of other: PlayingSong) {
        for part in parts { part.continuePass(of: other.parts[0]) }
    }

    /// Follows a plan made by ``whole``.
    func seek(following plan: SeekPlan) {
        for part in parts { part.seek(following: plan) }
    }

    func silence() {
        for part in parts { part.synthesizer.silence() }
    }

    func releaseAllNotes() {
        for part in parts { part.synthesizer.releaseAllNotes() }
    }
}
