/// How loud the song heard is and what the player does about it, for the play view.
public struct PlayedLoudness: Hashable, Sendable {
    /// Its integrated loudness as its settings render it, in LUFS; nil until it is measured (or
    /// for silence).
    public var integratedLUFS: Double?
    /// The gain that brings it to the target, in dB (0 until it is measured).
    public var gainDecibels: Double
    /// The gain is its folder's (`--loudness folder`), not its own.
    public var isFolderGain: Bool

    public init(integratedLUFS: Double?, gainDecibels: Double, isFolderGain: Bool = false) {
        self.integratedLUFS = integratedLUFS
        self.gainDecibels = gainDecibels
        self.isFolderGain = isFolderGain
    }
}
