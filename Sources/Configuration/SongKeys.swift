import SMF
import Synthesis
import SystemPackage

/// The keys that may differ from song to song, as both the configuration file and a folder's
/// `.smfplay.toml` read them: each key's name, value forms and range are written here once, so
/// that the two files cannot drift apart. Each returns nil when the table does not set the key
/// (or sets it to a value it reports); a key whose value may itself mean "not set" (`"auto"`,
/// `"inf"`) returns `.some(nil)` for it.
enum SongKeys {
    /// `soundfont`: a SoundFont (a string) or a stack of them (an array of strings, first wins), as
    /// written (see `RenderSettings.resolve(soundFont:relativeTo:)`).
    static func soundFonts(_ name: String = "soundfont", in table: TableReader) -> [String]? {
        table.read(name, default: nil, expected: "a SoundFont path or name in quotes, or a list of them") { value -> [String]?? in
            let texts = value.array.map { array in array.map { $0.string } } ?? [value.string]
            guard !texts.isEmpty, texts.allSatisfy({ $0.map { !$0.isEmpty } ?? false }) else { return nil }
            return .some(texts.compactMap { $0 })
        }
    }

    /// `midi_mode`: a standard, or `"auto"` (nil) for each song's own.
    static func midiMode(in table: TableReader) -> MIDIMode?? {
        table.read("midi_mode", default: nil, expected: TableReader.alternatives(["auto"] + MIDIMode.allCases.map(\.rawValue))) {
            value -> MIDIMode??? in
            if value.string == "auto" { return .some(.some(nil)) }
            return value.string.flatMap(MIDIMode.init(rawValue:)).map { .some(.some($0)) }
        }
    }

    /// `text_encoding`: one of `Configuration.textEncodings`, `"auto"` (nil) deciding for each file.
    static func textEncoding(in table: TableReader) -> String?? {
        table.read("text_encoding", default: nil, expected: TableReader.alternatives(Configuration.textEncodings)) { value -> String??? in
            guard let text = value.string, Configuration.textEncodings.contains(text) else { return nil }
            return .some(.some(text == "auto" ? nil : text))
        }
    }

    static func gain(in table: TableReader) -> Double? {
        table.number("gain", in: RenderSettings.gainRange)
    }

    /// `transpose`, semitones: only a folder file has it, as `--transpose` is a choice for a song.
    static func transpose(in table: TableReader) -> Int? {
        table.wholeNumber("transpose", in: Performance.transposeRange)
    }

    /// `loops`: extra passes round a song's loop, `"inf"` or `"marked"`.
    static func loops(in table: TableReader) -> LoopCount? {
        let range = LoopCount.extraRange
        let expected = "\"inf\", \"marked\" or a whole number from \(range.lowerBound) to \(range.upperBound)"
        return table.read("loops", default: nil, expected: expected) { value -> LoopCount?? in
            // A word as `--loops` reads it; a number as a TOML number.
            if let text = value.string { return LoopCount(text: text).map { .some($0) } }
            guard let count = TableReader.wholeNumber(value), range.contains(count) else { return nil }
            return .some(.extra(count))
        }
    }

    /// `fade`: seconds of fade-out after the last loop.
    static func fade(in table: TableReader) -> Double? {
        table.number("fade", in: RenderSettings.fadeRange)
    }

    // The `[reverb]` and `[chorus]` tables' keys; `table` is the table's reader.

    static func effectEnabled(in table: TableReader) -> Bool? {
        table.flag("enabled")
    }

    static func reverbRoomSize(in table: TableReader) -> Double? {
        table.number("room_size", in: SynthesizerSettings.Reverb.roomSizeRange)
    }

    static func reverbDamping(in table: TableReader) -> Double? {
        table.number("damping", in: SynthesizerSettings.Reverb.dampingRange)
    }

    static func reverbWidth(in table: TableReader) -> Double? {
        table.number("width", in: SynthesizerSettings.Reverb.widthRange)
    }

    static func reverbLevel(in table: TableReader) -> Double? {
        table.number("level", in: SynthesizerSettings.Reverb.levelRange)
    }

    static func chorusVoices(in table: TableReader) -> Int? {
        table.wholeNumber("voices", in: SynthesizerSettings.Chorus.voicesRange)
    }

    static func chorusLevel(in table: TableReader) -> Double? {
        table.number("level", in: SynthesizerSettings.Chorus.levelRange)
    }

    static func chorusSpeed(in table: TableReader) -> Double? {
        table.number("speed", in: SynthesizerSettings.Chorus.speedRange)
    }

    static func chorusDepth(in table: TableReader) -> Double? {
        table.number("depth", in: SynthesizerSettings.Chorus.depthRange)
    }
}
