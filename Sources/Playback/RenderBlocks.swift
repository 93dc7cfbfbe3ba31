import Synthesis

/// One block of a render, as a sequencer makes it: part of the song, or of the tail after it
/// (which ends early once silent).
struct RenderBlock {
    var frames: Int
    var isTail: Bool
}

/// The blocks a sequencer renders a song in: the song to its end in blocks of at most
/// `blockFrames`, then at most `tailFrames` more of its tail. Every part of a split song is cut
/// into the same blocks, so that block k of each part covers the same frames.
struct RenderBlocks {
    let sequencer: Sequencer
    let blockFrames: Int
    let tailFrames: Int
    private var rendered = 0
    /// Where the tail ends, once the song has.
    private var tailEnd: Int?

    init(sequencer: Sequencer, blockFrames: Int, tailFrames: Int) {
        self.sequencer = sequencer
        self.blockFrames = blockFrames
        self.tailFrames = tailFrames
    }

    /// Renders the next block into `buffer` (room for `blockFrames` stereo frames); nil at the end.
    mutating func render(into buffer: UnsafeMutablePointer<Float>) -> RenderBlock? {
        let sequencer = sequencer
        return next { sequencer.render(into: buffer, frames: $0) }
    }

    /// Renders the next block into `stems` (room for `blockFrames` frames); nil at the end.
    mutating func render(into stems: StemBuffers) -> RenderBlock? {
        let sequencer = sequencer
        return next { sequencer.render(into: stems, frames: $0) }
    }

    /// The next block's length, rendered by `render`; nil at the end.
    private mutating func next(_ render: (Int) -> Void) -> RenderBlock? {
        if tailEnd == nil {
            if !sequencer.isAtEnd, let left = sequencer.framesToEnd, left > 0 {
                let frames = Int(min(Int64(blockFrames), left))
                render(frames)
                rendered += frames
                return RenderBlock(frames: frames, isTail: false)
            }
            tailEnd = rendered + tailFrames
        }
        guard let tailEnd, rendered < tailEnd else { return nil }
        let frames = min(blockFrames, tailEnd - rendered)
        // Through the sequencer: events at the very last frame (note-offs) are still due.
        render(frames)
        rendered += frames
        return RenderBlock(frames: frames, isTail: true)
    }
}
