/// A bank and program a song asked for that no SoundFont of the stack has, and what played instead.
public struct PresetSubstitution: Hashable, Sendable {
    public var requestedBank: Int
    public var requestedProgram: Int
    public var playedBank: Int
    public var playedProgram: Int

    /// Bank 128 is the SoundFonts' drum bank.
    public var isDrumKit: Bool { requestedBank == PresetTable.drumBank }
}

extension PresetSubstitution: CustomStringConvertible {
    public var description: String {
        if isDrumKit {
            return requestedProgram == SoundModule.soundEffectsKit
                ? "no SoundFont has the SFX drum kit (drum program \(requestedProgram + 1)): the standard kit plays instead"
                : "no SoundFont has drum kit \(requestedProgram + 1): \(playedBank == PresetTable.drumBank ? "the standard kit" : "bank \(playedBank) program \(playedProgram + 1)") plays instead"
        }
        return "no SoundFont has bank \(requestedBank) program \(requestedProgram + 1): bank \(playedBank) program \(playedProgram + 1) plays instead"
    }
}
