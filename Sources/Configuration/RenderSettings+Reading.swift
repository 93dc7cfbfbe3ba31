import AudioOutput
import SMF
import Synthesis
import SystemPackage
import TOMLKit

// The file's keys for `RenderSettings`. Each key is read once here; a key that is not
// read here is reported as unknown, so this is the whole list of what the file may say.
extension RenderSettings {
    init(reading table: TableReader, configurationPath: FilePath) {
        self.init()
        soundFonts = Self.soundFonts("soundfont", in: table, configurationPath: configurationPath) ?? []
        let stacks = table.table("soundfonts")
        for standard in MIDIMode.allCases {
            if let stack = Self.soundFonts(standard.rawValue, in: stacks, configurationPath: configurationPath) {
                soundFontsByStandard[standard] = stack
            }
        }
        sidecarSoundFonts = table.flag("sidecar_soundfonts", default: sidecarSoundFonts)
        midiMode = table.read("midi_mode", default: nil, expected: TableReader.alternatives(["auto"] + MIDIMode.allCases.map(\.rawValue))) { value in
            value.string == "auto" ? .some(nil) : value.string.flatMap(MIDIMode.init(rawValue:)).map { .some($0) }
        }
        sampleRate = table.wholeNumber("sample_rate", default: sampleRate, in: Self.sampleRateRange)
        gain = table.number("gain", default: gain, in: Self.gainRange)
        limiter = table.flag("limiter", default: limiter)
        polyphony = table.wholeNumber("polyphony", default: polyphony, in: Self.polyphonyRange)
        interpolation = table.choice("interpolation", default: interpolation)
        let reverbTable = table.table("reverb")
        isReverbEnabled = reverbTable.flag("enabled", default: isReverbEnabled)
        reverb = SynthesizerSettings.Reverb(reading: reverbTable)
        let chorusTable = table.table("chorus")
        isChorusEnabled = chorusTable.flag("enabled", default: isChorusEnabled)
        chorus = SynthesizerSettings.Chorus(reading: chorusTable)
        tail = table.number("tail", default: tail, in: Self.tailRange)
        loops = table.read(
            "loops", default: loops, expected: "\"inf\" or a whole number from \(Self.loopsRange.lowerBound) to \(Self.loopsRange.upperBound)"
        ) { value -> Int?? in
            if value.string == "inf" { return .some(nil) }
            guard let count = TableReader.wholeNumber(value), Self.loopsRange.contains(count) else { return nil }
            return .some(count)
        }
        fade = table.number("fade", default: fade, in: Self.fadeRange)
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

    /// A SoundFont (a string) or a stack of them (an array of strings, first wins); nil when not set.
    private static func soundFonts(_ name: String, in table: TableReader, configurationPath: FilePath) -> [String]? {
        table.read(name, default: nil, expected: "a SoundFont path or name in quotes, or a list of them") { value -> [String]?? in
            let texts = value.array.map { array in array.map { $0.string } } ?? [value.string]
            guard !texts.isEmpty, texts.allSatisfy({ $0.map { !$0.isEmpty } ?? false }) else { return nil }
            return .some(texts.compactMap { $0 }.map { resolve(soundFont: $0, relativeTo: configurationPath) })
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
        roomSize = table.number("room_size", default: roomSize, in: Self.roomSizeRange)
        damping = table.number("damping", default: damping, in: Self.dampingRange)
        width = table.number("width", default: width, in: Self.widthRange)
        level = table.number("level", default: level, in: Self.levelRange)
    }
}

extension SynthesizerSettings.Chorus {
    init(reading table: TableReader) {
        self.init()
        voices = table.wholeNumber("voices", default: voices, in: Self.voicesRange)
        level = table.number("level", default: level, in: Self.levelRange)
        speed = table.number("speed", default: speed, in: Self.speedRange)
        depth = table.number("depth", default: depth, in: Self.depthRange)
    }
}
