import Synthesis
import Testing

/// `--loops marked`: the passes a song's mark asks for, over the settings' own.
struct LoopSettingsTests {
    @Test(
        "following marks: a count is the passes; 0 is for ever where that may be (play), the number given where a render must end; no count keeps the passes"
    )
    func applyingMarks() {
        let play = LoopSettings(passes: 1, fadeSeconds: 5, followsMarks: true)
        #expect(play.applying(markedPasses: 3) == LoopSettings(passes: 3, fadeSeconds: 5))
        #expect(play.applying(markedPasses: 0) == LoopSettings(passes: nil, fadeSeconds: 5))
        #expect(play.applying(markedPasses: nil) == play)
        let render = LoopSettings(passes: 1, fadeSeconds: 0, followsMarks: true, passesForMarkedForever: 2)
        #expect(render.applying(markedPasses: 0).passes == 2)
        let counted = LoopSettings(passes: 4, fadeSeconds: 0)
        #expect(counted.applying(markedPasses: 3) == counted, "--loops 3 is not the mark's")
    }
}
