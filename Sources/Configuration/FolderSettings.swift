import SMF
import Synthesis
import SystemPackage

/// One song's settings from the `.smfplay.toml` files in its folder and the folders above it,
/// each key with the file that set it: for each key, the nearest file that sets it wins.
///
/// How it is used: a command makes one ``FolderSettingsLookup`` for the run (the library root, the
/// SoundFont locator) and the command's own ``SongSettings`` (the configuration's with the command
/// line's over them), and names the keys its command line set (``Key``, which no folder file
/// overrides). For each song, `lookup.songSettings(forSongAt:command:commandLine:)` gives the
/// song's settings: it reads each folder's file once for the run, takes the nearest file's value
/// key by key (`settings(forSongAt:)`) and lays them over the command's (``applied(to:commandLine:)``);
/// it throws a broken file's `file:line:` error (`render` fails the song, `play` skips it). A song
/// for which `needsOwnSynthesizer(comparedTo:)` the command's settings is true plays on a
/// synthesizer of its own, as a song with its own sound bank does; its `performance`, `loops`
/// (`passes` nil: `loops = "inf"`, which `render` refuses) and `textEncoding` are the song's.
/// `info` lists ``entries``.
public struct FolderSettings: Sendable, Equatable {
    /// The name of a folder's settings file.
    public static let fileName = ".smfplay.toml"

    /// One key's value and the folder file that set it.
    public struct Setting<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var file: FilePath

        public init(_ value: Value, file: FilePath) {
            self.value = value
            self.file = file
        }
    }

    /// The keys a folder file may set, spelled as in the file (and as the configuration file
    /// spells them, where it has them).
    public enum Key: String, CaseIterable, Sendable, Hashable {
        case soundFont = "soundfont"
        case midiMode = "midi_mode"
        case textEncoding = "text_encoding"
        case gain, transpose, loops, fade
        case reverbEnabled = "reverb.enabled"
        case reverbRoomSize = "reverb.room_size"
        case reverbDamping = "reverb.damping"
        case reverbWidth = "reverb.width"
        case reverbLevel = "reverb.level"
        case chorusEnabled = "chorus.enabled"
        case chorusVoices = "chorus.voices"
        case chorusLevel = "chorus.level"
        case chorusSpeed = "chorus.speed"
        case chorusDepth = "chorus.depth"
    }

    public var soundFonts: Setting<FolderSoundFonts>?
    /// nil for `"auto"`: each song read as the standard it was written for.
    public var midiMode: Setting<MIDIMode?>?
    /// nil for `"auto"`: decided for each file from its text.
    public var textEncoding: Setting<TextDecoding.Encoding?>?
    public var gain: Setting<Double>?
    /// Semitones, as `--transpose`.
    public var transpose: Setting<Int>?
    /// Passes round a song's loop, as `--loops`.
    public var loops: Setting<LoopCount>?
    /// Seconds of fade-out after the last loop, as `--fade`.
    public var fade: Setting<Double>?
    public var reverbEnabled: Setting<Bool>?
    public var reverbRoomSize: Setting<Double>?
    public var reverbDamping: Setting<Double>?
    public var reverbWidth: Setting<Double>?
    public var reverbLevel: Setting<Double>?
    public var chorusEnabled: Setting<Bool>?
    public var chorusVoices: Setting<Int>?
    public var chorusLevel: Setting<Double>?
    public var chorusSpeed: Setting<Double>?
    public var chorusDepth: Setting<Double>?

    /// No key set: what a song gets when no folder above it has a file.
    public init() {}

    /// These settings, with `farther`'s (a file further up) for the keys these leave unset.
    public func over(_ farther: FolderSettings) -> FolderSettings {
        var merged = self
        merged.soundFonts = soundFonts ?? farther.soundFonts
        merged.midiMode = midiMode ?? farther.midiMode
        merged.textEncoding = textEncoding ?? farther.textEncoding
        merged.gain = gain ?? farther.gain
        merged.transpose = transpose ?? farther.transpose
        merged.loops = loops ?? farther.loops
        merged.fade = fade ?? farther.fade
        merged.reverbEnabled = reverbEnabled ?? farther.reverbEnabled
        merged.reverbRoomSize = reverbRoomSize ?? farther.reverbRoomSize
        merged.reverbDamping = reverbDamping ?? farther.reverbDamping
        merged.reverbWidth = reverbWidth ?? farther.reverbWidth
        merged.reverbLevel = reverbLevel ?? farther.reverbLevel
        merged.chorusEnabled = chorusEnabled ?? farther.chorusEnabled
        merged.chorusVoices = chorusVoices ?? farther.chorusVoices
        merged.chorusLevel = chorusLevel ?? farther.chorusLevel
        merged.chorusSpeed = chorusSpeed ?? farther.chorusSpeed
        merged.chorusDepth = chorusDepth ?? farther.chorusDepth
        return merged
    }

    /// Whether no key is set.
    public var isEmpty: Bool { entries.isEmpty }
}

/// A folder file's `soundfont`: what it names, and the files those are, looked up once when the
/// file is read. A lookup that failed is an error only for a song that plays with it (the command
/// line's `--soundfont` may stand in its place).
public struct FolderSoundFonts: Sendable, Equatable {
    /// As written: names, and paths (a relative one with a folder in it starts at the folder
    /// file's folder, as the configuration file's start at its).
    public var written: [String]
    /// The SoundFont files, first wins; or why they are not there.
    public var located: Result<[FilePath], FolderSettingsError>

    public init(written: [String], located: Result<[FilePath], FolderSettingsError>) {
        self.written = written
        self.located = located
    }
}
