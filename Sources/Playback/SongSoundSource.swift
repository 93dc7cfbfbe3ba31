import SMF
import Synthesis
import SystemPackage

/// How each song sounds as the player plays it: its own settings (its folder's) when it has
/// them, else the player's; its own bank over the SoundFonts. What a song is prepared with, and
/// what the background measures its folder's songs with, so that both key the same sound.
struct SongSoundSource: Sendable {
    /// The player's synthesizer settings, SoundFonts and loops: a song's without its own.
    var settings: SynthesizerSettings
    var soundFonts: SoundFontStack
    var loops: LoopSettings
    var songSettings: Player.SongSettingsSource?
    var songBanks: SongBankLookup

    /// A song's sound.
    struct Sound {
        /// Its own settings, when its folder has some.
        var own: SongSettings?
        var settings: SynthesizerSettings
        /// The SoundFonts with its own bank on top.
        var soundFonts: SoundFontStack
        var loops: LoopSettings
    }

    /// The sound of `song`, read from `file`; a problem with its folder's settings fails it.
    func sound(of song: Song, at file: FilePath?) -> Result<Sound, SongSettingsProblem> {
        var own: SongSettings?
        if let file, let songSettings {
            switch songSettings(file) {
            case .success(let settings): own = settings
            case .failure(let problem): return .failure(problem)
            }
        }
        let songBank = file.flatMap { songBanks.bank(forSongAt: $0, embedded: song.file.embeddedSoundBank) }
        return .success(
            Sound(
                own: own, settings: own?.synthesizer ?? settings, soundFonts: (own?.soundFonts ?? soundFonts).with(songBank: songBank),
                loops: own?.loops ?? loops))
    }
}
