import SMF
import SystemPackage

// A folder file's keys: those of the configuration file that may differ from song to song, read
// by the same readers (`SongKeys`), plus `transpose`. Any other key is unknown, with the
// configuration file's suggestion of the key it was likely meant to be.
extension FolderSettings {
    /// One folder file's settings, each set by `path`. `path` names the file in error messages and
    /// is where relative SoundFont paths start; `locator` finds the SoundFonts named, as it finds
    /// the configuration file's.
    public init(parsing text: String, path: FilePath, locator: SoundFontLocator) throws(ConfigurationError) {
        self.init()
        let (reader, root) = try Configuration.document(parsing: text, path: path)
        func set<Value>(_ value: Value?) -> Setting<Value>? { value.map { Setting($0, file: path) } }
        if let written = SongKeys.soundFonts(in: root) {
            let resolved = written.map { RenderSettings.resolve(soundFont: $0, relativeTo: path) }
            let located = Result { () throws(FolderSettingsError) in
                do throws(SoundFontLookupError) {
                    return try locator.locate(requested: [], configured: resolved, configurationFile: path)
                } catch {
                    throw .soundFont(path: path, line: root.line(of: "soundfont"), problem: error)
                }
            }
            soundFonts = set(FolderSoundFonts(written: written, located: located))
        }
        midiMode = set(SongKeys.midiMode(in: root))
        // `Configuration.textEncodings` are all `TextDecoding.Encoding`s.
        textEncoding = set(SongKeys.textEncoding(in: root).map { $0.flatMap(TextDecoding.Encoding.init(rawValue:)) })
        gain = set(SongKeys.gain(in: root))
        transpose = set(SongKeys.transpose(in: root))
        loops = set(SongKeys.loops(in: root))
        fade = set(SongKeys.fade(in: root))
        let reverb = root.table("reverb")
        reverbEnabled = set(SongKeys.effectEnabled(in: reverb))
        reverbRoomSize = set(SongKeys.reverbRoomSize(in: reverb))
        reverbDamping = set(SongKeys.reverbDamping(in: reverb))
        reverbWidth = set(SongKeys.reverbWidth(in: reverb))
        reverbLevel = set(SongKeys.reverbLevel(in: reverb))
        let chorus = root.table("chorus")
        chorusEnabled = set(SongKeys.effectEnabled(in: chorus))
        chorusVoices = set(SongKeys.chorusVoices(in: chorus))
        chorusLevel = set(SongKeys.chorusLevel(in: chorus))
        chorusSpeed = set(SongKeys.chorusSpeed(in: chorus))
        chorusDepth = set(SongKeys.chorusDepth(in: chorus))
        if let problem = reader.firstProblem() { throw problem }
    }
}
