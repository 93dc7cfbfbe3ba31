import AudioOutput
import Loudness
import SMF
import Synthesis
import SystemPackage
import TOMLKit

// The file's keys for `RenderSettings`. Each key is read once here; a key that is not
// read here is reported as unknown, so this is the whole list of what the file may say.
extension RenderSettings {
    init(reading table: TableReader) {
        self.init()
        let path = table.document.path
        soundFonts = SongKeys.soundFonts(in: table)?.map { Self.resolve(soundFont: $0, relativeTo: path) } ?? []
        let stacks = table.table("soundfonts")
        for standard in MIDIMode.allCases {
            if let stack = SongKeys.soundFonts(standard.rawValue, in: stacks) {
                soundFontsByStandard[standard] = stack.map { Self.resolve(soundFont: $0, relativeTo: path) }
            }
        }
        sidecarSoundFonts = table.flag("sidecar_soundfonts", default: sidecarSoundFonts)
        midiMode = SongKeys.midiMode(in: table) ?? midiMode
        sampleRate = table.wholeNumber("sample_rate", default: sampleRate, in: Self.sampleRateRange)
        gain = SongKeys.gain(in: table) ?? gain
        limiter = table.flag("limiter", default: limiter)
        loudnessTarget = table.number("loudness_target", default: loudnessTarget, in: LoudnessTarget.range)
        loudnessMode = table.choice("loudness", default: loudnessMode)
        polyphony = table.wholeNumber("polyphony", default: polyphony, in: Self.polyphonyRange)
        interpolation = table.choice("interpolation", default: interpolation)
        let reverbTable = table.table("reverb")
        isReverbEnabled = SongKeys.effectEnabled(in: reverbTable) ?? isReverbEnabled
        reverb = SynthesizerSettings.Reverb(reading: reverbTable)
        let chorusTable = table.table("chorus")
        isChorusEnabled = SongKeys.effectEnabled(in: chorusTable) ?? isChorusEnabled
        chorus = SynthesizerSettings.Chorus(reading: chorusTable)
        tail = table.number("tail", default: tail, in: Self.tailRange)
        loops = SongKeys.loops(in: table) ?? loops
        fade = SongKeys.fade(in: table) ?? fade
        jobs = table.read("jobs", default: jobs, expected: "\"auto\" or a whole number from \(Self.minimumJobs) up") { value -> Int?? in
            if value.string == "auto" { return .some(nil) }
            guard let count = TableReader.wholeNumber(value), count >= Self.minimumJobs else { return nil }
            return .some(count)
        }
        format = table.choice("format", default: format, among: AudioFileFormat.fileFormats)
        // `bits = 16` without quotes is what people write first; it means the same.
        bits = table.read("bits", default: bits, expected: TableReader.alternatives(SampleEncoding.allCases.map(\.rawValue))) { value in
            value.string.flatMap(SampleEncoding.init(rawValue:)) ?? value.int.flatMap { SampleEncoding(rawValue: String($0)) }
        }
        quality = table.number("quality", in: EncodingQuality.range).flatMap(EncodingQuality.init) ?? quality
        if !format.supportedEncodings.contains(bits) {
            let allowed = format.supportedEncodings.map(\.rawValue)
            let key = table.contains("bits") ? "bits" : "format"
            table.reportInvalid(
                key,
                expected: TableReader.alternatives(allowed) + " for \(format.rawValue) files",
                found: TOMLValueDescription.quoted(bits.rawValue)
            )
            bits = .pcm16
        }
    }

    /// A path written in the configuration file means the same wherever smfplay is
    /// started from: a relative path with a folder in it starts at the file's folder.
    /// A bare name (no `/`) is a SoundFont name, looked up in the SoundFont folders,
    /// and `~` is left for `SoundFontLocator`, which knows the home folder.
    static func resolve(soundFont: String, relativeTo configurationPath: FilePath) -> String {
        guard soundFont.contains("/"), !soundFont.hasPrefix("/"), !soundFont.hasPrefix("~") else { return soundFont }
        // Text: the value is text, and so is what the locator takes (a path or a name).
        return configurationPath.containingFolder.pushing(FilePath(soundFont)).string
    }
}

extension SynthesizerSettings.Reverb {
    init(reading table: TableReader) {
        self.init()
        roomSize = SongKeys.reverbRoomSize(in: table) ?? roomSize
        damping = SongKeys.reverbDamping(in: table) ?? damping
        width = SongKeys.reverbWidth(in: table) ?? width
        level = SongKeys.reverbLevel(in: table) ?? level
    }
}

extension SynthesizerSettings.Chorus {
    init(reading table: TableReader) {
        self.init()
        voices = SongKeys.chorusVoices(in: table) ?? voices
        level = SongKeys.chorusLevel(in: table) ?? level
        speed = SongKeys.chorusSpeed(in: table) ?? speed
        depth = SongKeys.chorusDepth(in: table) ?? depth
    }
}
