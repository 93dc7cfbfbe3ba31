import TOMLKit

// The file's keys for `RenderSettings`. Each key is read once here; a key that is not
// read here is reported as unknown, so this is the whole list of what the file may say.
extension RenderSettings {
    init(reading table: TableReader, configurationPath: String) {
        self.init()
        soundFont = table.read("soundfont", default: nil, expected: "a SoundFont path or name in quotes") { value -> String?? in
            guard let text = value.string, !text.isEmpty else { return nil }
            return .some(Self.resolve(soundFont: text, relativeTo: configurationPath))
        }
        sampleRate = table.wholeNumber("sample_rate", default: sampleRate, in: Self.sampleRateRange)
        gain = table.number("gain", default: gain, in: Self.gainRange)
        polyphony = table.wholeNumber("polyphony", default: polyphony, in: Self.polyphonyRange)
        interpolation = table.choice("interpolation", default: interpolation)
        reverb = Reverb(reading: table.table("reverb"))
        chorus = Chorus(reading: table.table("chorus"))
        tail = table.number("tail", default: tail, in: Self.tailRange)
        jobs = table.read("jobs", default: jobs, expected: "\"auto\" or a whole number from \(Self.minimumJobs) up") { value -> Int?? in
            if value.string == "auto" { return .some(nil) }
            guard let count = TableReader.wholeNumber(value), count >= Self.minimumJobs else { return nil }
            return .some(count)
        }
        format = table.choice("format", default: format)
        // `bits = 16` without quotes is what people write first; it means the same.
        bits = table.read("bits", default: bits, expected: TableReader.alternatives(SampleFormat.allCases.map(\.rawValue))) { value in
            value.string.flatMap(SampleFormat.init(rawValue:)) ?? value.int.flatMap { SampleFormat(rawValue: String($0)) }
        }
        if !format.supports(bits) {
            let allowed = SampleFormat.allCases.filter(format.supports).map(\.rawValue)
            let key = table.contains("bits") ? "bits" : "format"
            table.reportInvalid(
                key,
                expected: TableReader.alternatives(allowed) + " for \(format.rawValue) files",
                found: TOMLValueDescription.quoted(bits.rawValue)
            )
            bits = .int16
        }
    }

    /// A path written in the configuration file means the same wherever smfplay is
    /// started from: a relative path with a folder in it starts at the file's folder.
    /// A bare name (no `/`) is a SoundFont name, looked up in the SoundFont folders,
    /// and `~` is left for `SoundFontLocator`, which knows the home folder.
    static func resolve(soundFont: String, relativeTo configurationPath: String) -> String {
        guard soundFont.contains("/"), !soundFont.hasPrefix("/"), !soundFont.hasPrefix("~") else { return soundFont }
        return PathText.join(PathText.parent(of: configurationPath), soundFont)
    }
}

extension RenderSettings.Reverb {
    init(reading table: TableReader) {
        self.init()
        isEnabled = table.flag("enabled", default: isEnabled)
        roomSize = table.number("room_size", default: roomSize, in: Self.roomSizeRange)
        damping = table.number("damping", default: damping, in: Self.dampingRange)
        width = table.number("width", default: width, in: Self.widthRange)
        level = table.number("level", default: level, in: Self.levelRange)
    }
}

extension RenderSettings.Chorus {
    init(reading table: TableReader) {
        self.init()
        isEnabled = table.flag("enabled", default: isEnabled)
        voices = table.wholeNumber("voices", default: voices, in: Self.voicesRange)
        level = table.number("level", default: level, in: Self.levelRange)
        speed = table.number("speed", default: speed, in: Self.speedRange)
        depth = table.number("depth", default: depth, in: Self.depthRange)
    }
}
