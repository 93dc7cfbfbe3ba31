import Foundation

/// A small sound bank made by the tests themselves, whose sound is unmistakable: each preset plays
/// one ``TestWaveform`` (a sine, a square, a sawtooth; noise for a drum kit), which no General MIDI
/// SoundFont sounds like. Written as a SoundFont 2, a SoundFont 3 (samples in Ogg Vorbis) or a
/// DLS level 1 file, as bytes (to embed in an RMID file) or to a file.
///
/// ```swift
/// let bank = TestSoundBank(presets: [.init("Sine", program: 0, waveform: .sine), .drumKit("Noise Kit")])
/// let path = try bank.write(.soundFont2, to: folder.file("test.sf2"))
/// ```
public struct TestSoundBank: Sendable {
    /// One instrument or drum kit: a single waveform over the whole keyboard, keyed from its root
    /// key (the pitched waves sound A4 at key 69), looped while held (the noise is not).
    public struct Preset: Sendable {
        public var name: String
        /// The SoundFont bank, as FluidSynth lists it: 0–127 for instruments, 128 for drum kits.
        public var bank: Int
        public var program: Int
        public var waveform: TestWaveform
        /// How long the sound takes to fade once the key is released (volume envelope release).
        public var releaseSeconds: Double

        public init(_ name: String, bank: Int = 0, program: Int, waveform: TestWaveform, releaseSeconds: Double = 0.1) {
            precondition((0...128).contains(bank) && (0...127).contains(program), "bank 0–128, program 0–127")
            self.name = name
            self.bank = bank
            self.program = program
            self.waveform = waveform
            self.releaseSeconds = releaseSeconds
        }

        /// A drum kit (bank 128) playing `waveform` on every key.
        public static func drumKit(_ name: String, program: Int = 0, waveform: TestWaveform = .noise) -> Preset {
            Preset(name, bank: drumBank, program: program, waveform: waveform)
        }

        public var isDrumKit: Bool { bank == Self.drumBank }

        static let drumBank = 128
    }

    public enum Format: String, Sendable, CaseIterable {
        /// SoundFont 2.01: 16-bit samples, each followed by 46 zero samples.
        case soundFont2 = "sf2"
        /// SoundFont 3 (MuseScore's): the samples in Ogg Vorbis, encoded by `sox`.
        case soundFont3 = "sf3"
        /// Downloadable Sounds level 1, 16-bit PCM; banks in `ulBank` as FluidSynth reads them.
        case downloadableSounds = "dls"

        /// The file name extension, without the dot.
        public var fileExtension: String { rawValue }
    }

    public var name: String
    public var presets: [Preset]

    public init(name: String = "smfplay test bank", presets: [Preset]) {
        self.name = name
        self.presets = presets
    }

    /// The distinct waveforms the presets play, in the order first played: each is stored once.
    var waveforms: [TestWaveform] {
        presets.reduce(into: []) { found, preset in
            if !found.contains(preset.waveform) { found.append(preset.waveform) }
        }
    }

    /// The whole file. A SoundFont 3 runs `sox` to encode its samples.
    public func bytes(_ format: Format) throws -> [UInt8] {
        switch format {
        case .soundFont2: SoundFontWriter(bank: self).soundFont2()
        case .soundFont3: try SoundFontWriter(bank: self).soundFont3()
        case .downloadableSounds: DLSWriter(bank: self).bytes()
        }
    }

    /// Writes the file at `path` and returns the path.
    @discardableResult
    public func write(_ format: Format, to path: String) throws -> String {
        guard FileManager.default.createFile(atPath: path, contents: Data(try bytes(format))) else {
            throw TestFailure("could not write the sound bank \(path)")
        }
        return path
    }
}
