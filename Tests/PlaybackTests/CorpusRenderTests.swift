import AudioOutput
import Dispatch
import Foundation
import Playback
import SMF
import SoundComparison
import Synchronization
import Synthesis
import SystemPackage
import Testing

/// Renders every song of Debian's openttd-openmsx package with `SongRenderer` at the default
/// settings (default gain, reverb and chorus on, TimGM6mb, 44100 Hz, default tail) into float WAV,
/// and with the `fluidsynth` command line at the same settings, then compares the two by sound
/// (``SoundComparison``: instruments, pitch and rhythm, level within ±1 dB, no part missing) over
/// their first ``CorpusRenders/comparedSeconds`` seconds.
///
/// The corpus is rendered once for all the tests below, two songs at a time.
@Suite struct CorpusRenderTests {
    /// Below this peak a render counts as silent: −80 dBFS.
    static let silence = Level.linear(decibels: -80)
    /// A song's render must be louder than this somewhere: −40 dBFS.
    static let audible = Level.linear(decibels: -40)

    /// Without the corpus the parameterized tests have no arguments and would pass silently; this one
    /// fails instead, and says what is missing.
    @Test func corpusSoundFontAndFluidSynthArePresent() throws {
        let names = OpenMSXCorpus.fileNames
        #expect(
            names.count >= 31,
            "\(names.count) .mid files in \(OpenMSXCorpus.directory), expected 31: run `make deps` (Debian package openttd-openmsx)")
        _ = try TestSoundFont.required()
        _ = try FluidSynthCLI.required()
    }

    @Test(arguments: OpenMSXCorpus.fileNames)
    func rendersWholeSongNotSilentWithoutClipping(_ name: String) async throws {
        let render = try await CorpusRenders.render(named: name)
        let ours = render.ours
        #expect(ours.channels == 2 && ours.sampleRate == 44_100, "\(name): \(ours.channels) channels at \(ours.sampleRate) Hz")
        #expect(render.result.songSeconds == render.songSeconds)
        #expect(
            abs(ours.seconds - render.result.audioSeconds) <= 0.010,
            "\(name): \(ours.seconds) s in the file, \(render.result.audioSeconds) s reported")
        #expect(
            ours.seconds >= render.songSeconds - 0.010 && ours.seconds <= render.songSeconds + 10.010,
            "\(name): \(ours.seconds) s of audio for a \(render.songSeconds) s song and a tail of at most 10 s")
        // The tail ends once the output stays below −90 dBFS: within a few of the renderer's 93 ms blocks.
        let silentTail = ours.seconds - max(ours.audibleSeconds, render.songSeconds)
        #expect(silentTail <= 0.25, "\(name): the file ends with \(silentTail) s below −90 dBFS after the song")
        #expect(ours.peak < 1, "\(name): peak \(ours.peak) (\(Level.decibels(ours.peak)) dBFS) clips at the default gain")
        #expect(ours.peak == render.result.peak, "\(name): the file's peak \(ours.peak), the renderer's \(render.result.peak)")
        #expect(ours.peak > Self.audible, "\(name): silent, peak \(Level.decibels(ours.peak)) dBFS")
    }

    @Test(arguments: OpenMSXCorpus.fileNames)
    func soundsLikeFluidSynth(_ name: String) async throws {
        let render = try await CorpusRenders.render(named: name)
        let theirs = render.fluidSynth
        if let reason = OpenMSXCorpus.fluidSynthReaderFailures[name] {
            #expect(
                theirs.peak < Self.silence,
                "\(name) is listed as a file FluidSynth's reader cannot play (\(reason)), yet fluidsynth renders it: take it off the list")
            return
        }
        #expect(
            theirs.peak >= Self.silence,
            "fluidsynth renders \(name) silent: if its reader cannot play the file, list it in fluidSynthReaderFailures with the reason")
        let comparison = try #require(render.comparison)
        #expect(comparison.mismatches().isEmpty, "\(name) does not sound like fluidsynth's rendering: \(comparison.mismatches())")
    }

    /// The song split across two synthesizers sounds as one renders it (``SplitRenderTests``): by
    /// sound at `SplitRenderTests.sameRendering`'s bounds (similarity 0.99, level within 0.5 dB), and sample by sample within −30 dB over the whole song. Not
    /// closer: FluidSynth 2.3.1 itself is not additive across channels, effects on or off. The
    /// `fluidsynth` command line's renders of a song's drums and of the rest of it sum to its
    /// render of the whole within −36.6 dB for slow_neasy_redfarn.mid and −55.6 dB for
    /// keep_on_rolling.mid (TimGM6mb and FluidR3_GM, `-R 0 -C 0`); smfplay's split of the corpus
    /// ranges from −35.3 dB (slow_neasy_redfarn.mid) down.
    @Test(arguments: OpenMSXCorpus.fileNames)
    func splitAcrossSynthesizersSoundsTheSame(_ name: String) async throws {
        let split = try await CorpusRenders.render(named: name).split
        #expect(
            split.comparison.mismatches(SplitRenderTests.sameRendering).isEmpty,
            "\(name): \(split.comparison.mismatches(SplitRenderTests.sameRendering))")
        #expect(abs(split.extraFrames) <= 4_096, "\(name): the split render is \(split.extraFrames) frames longer")
        #expect(abs(split.levelDifference) <= 0.5, "\(name): the split render's level is \(split.levelDifference) dB off over the whole song")
        #expect(split.differenceLevel <= -30, "\(name): the split render differs by \(split.differenceLevel) dB over the whole song")
    }

    /// The comparison above fails renderings that are wrong in the ways a listener hears: 12 dB too
    /// quiet, and the drums played as notes on a melodic channel.
    @Test func wrongRenderingsFailTheComparison() throws {
        let name = "boogi_marabi_redfarn.mid"
        let folder = try TemporaryFolder()
        let render = try CorpusRenders.renderBothWays(midi: OpenMSXCorpus.directory + "/" + name, in: folder, keepFiles: true)
        let ours = try CorpusRenders.firstSeconds(of: folder.file("smfplay.wav"))
        let theirs = try CorpusRenders.firstSeconds(of: folder.file("fluidsynth.wav"))
        #expect(try #require(render.comparison).mismatches().isEmpty, "the right rendering must pass first")
        let quieter = SoundComparison(candidate: ours.map { $0 * 0.251 }, reference: theirs, sampleRate: 44_100)
        #expect(quieter.mismatches().contains { $0.hasPrefix("level") }, "12 dB too quiet passes: \(quieter.mismatches())")
        // The same song with its drum channel's events moved to channel 16 (a piano there).
        var file = try SMFReader().read(path: FilePath(OpenMSXCorpus.directory + "/" + name)).file
        let drumsMoved = MIDIFile(
            format: file.format, timebase: file.timebase,
            tracks: file.tracks.map { track in
                var moved = Track()
                for event in track.events { moved.append(Self.offChannelTen(track.message(of: event)), atTick: event.tick) }
                return moved
            })
        file = drumsMoved
        let moved = folder.file("drums-moved.wav")
        _ = try SongRenderer(synthesizer: try Synthesizer(settings: CorpusRenders.settings, soundFontPath: try TestSoundFont.required()))
            .render(Song(file: file), to: FilePath(moved), options: RenderOptions(format: .wav, encoding: .float32))
        let drumsAsNotes = SoundComparison(candidate: try CorpusRenders.firstSeconds(of: moved), reference: theirs, sampleRate: 44_100)
        #expect(!drumsAsNotes.mismatches().isEmpty, "drums played as notes pass: similarity \(drumsAsNotes.spectralSimilarity)")
    }

    @Test func listedFluidSynthReaderFailuresAreCorpusFiles() {
        for name in OpenMSXCorpus.fluidSynthReaderFailures.keys {
            #expect(OpenMSXCorpus.fileNames.contains(name), "\(name) is listed among FluidSynth's reader failures but is not in the corpus")
        }
    }

    /// The known failure the exception list is for: FluidSynth 2.3.1's reader stops at a data byte
    /// that follows a meta event under running status, and renders silence. smfplay plays it.
    @Test func fluidSynthReaderFailureShowsAsSilence() throws {
        let folder = try TemporaryFolder()
        let midi = folder.file("running-status-after-meta.mid")
        let track: [UInt8] = [
            0x00, 0xC0, 0x00, // program change: piano
            0x00, 0x90, 0x3C, 0x64, // note on C4
            0x00, 0xFF, 0x01, 0x01, 0x41, // text meta event
            0x00, 0x40, 0x64, // note on E4, running status across the meta event
            0x83, 0x60, 0x80, 0x3C, 0x00, // note off C4 after 480 ticks
            0x00, 0x40, 0x00, // note off E4, running status
            0x00, 0xFF, 0x2F, 0x00,
        ]
        let header: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0]
        let length = UInt32(track.count)
        let chunk: [UInt8] = Array("MTrk".utf8) + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        try Data(header + chunk + track).write(to: URL(fileURLWithPath: midi))

        let render = try CorpusRenders.renderBothWays(midi: midi, in: folder)
        #expect(render.fluidSynth.peak < Self.silence, "fluidsynth now plays running status after a meta event: peak \(render.fluidSynth.peak)")
        #expect(render.ours.peak > Self.audible, "smfplay renders the file silent: peak \(render.ours.peak)")
    }

    /// A channel 10 message on channel 16 instead.
    static func offChannelTen(_ message: MIDIMessage) -> MIDIMessage {
        switch message {
        case .noteOn(9, let note, let velocity): .noteOn(channel: 15, note: note, velocity: velocity)
        case .noteOff(9, let note, let velocity): .noteOff(channel: 15, note: note, velocity: velocity)
        case .notePressure(9, let note, let pressure): .notePressure(channel: 15, note: note, pressure: pressure)
        case .controlChange(9, let controller, let value): .controlChange(channel: 15, controller: controller, value: value)
        case .programChange(9, let program): .programChange(channel: 15, program: program)
        case .channelPressure(9, let pressure): .channelPressure(channel: 15, pressure: pressure)
        case .pitchBend(9, let value): .pitchBend(channel: 15, value: value)
        default: message
        }
    }

    /// FluidSynth rejects unknown keys, but takes values it cannot read as 0: read its settings back.
    @Test func fluidSynthTakesEverySetting() throws {
        let settings = CorpusRenders.settings
        let folder = try TemporaryFolder()
        let commands = folder.file("commands.txt")
        try Data("settings\n".utf8).write(to: URL(fileURLWithPath: commands))
        let output = try FluidSynthCLI.run(
            ["-n", "-i", "-a", "file", "-o", "audio.file.name=/dev/null"] + FluidSynthCLI.settingArguments(settings) + ["-f", commands],
            in: folder)
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2 { values[String(fields[0])] = String(fields[1]) }
        }
        // `-r` and `-g` set these two.
        let expected = FluidSynthCLI.options(settings) + [("synth.sample-rate", settings.sampleRate), ("synth.gain", settings.gain)]
        for (key, value) in expected {
            let shown = try #require(values[key], "fluidsynth does not list \(key)")
            let number = shown == "True" ? 1 : shown == "False" ? 0 : Double(shown)
            #expect(number.map { abs($0 - value) < 0.001 } == true, "\(key): fluidsynth has \(shown), smfplay's synthesizer \(value)")
        }
        // The command line cannot choose the interpolation: it must be FluidSynth's default, fourth order.
        #expect(settings.interpolation == .cubic)
    }
}

/// Debian's openttd-openmsx package: 31 songs in format 0 and 1.
enum OpenMSXCorpus {
    static let directory = "/usr/share/games/openttd/baseset/openmsx"

    /// The `.mid` files of the corpus, sorted; empty when the package is missing.
    static let fileNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".mid") }.sorted()
    }()

    /// Files FluidSynth 2.3.1's own MIDI reader cannot play, with the reason: their loudness is not
    /// compared, and fluidsynth's render of each must stay silent. Checked on openttd-openmsx 0.4.2:
    /// fluidsynth plays all 31 songs (none has running status after a meta or system exclusive
    /// event, the failure `fluidSynthReaderFailureShowsAsSilence` shows), so the list is empty.
    static let fluidSynthReaderFailures: [String: String] = [:]
}

/// The `fluidsynth` command line (Debian package fluidsynth).
enum FluidSynthCLI {
    static let path = "/usr/bin/fluidsynth"

    static func required() throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run `make deps` (Debian package fluidsynth)")
        return path
    }

    /// The FluidSynth settings `Synthesizer` sets from `settings`, but the sample rate and gain
    /// (`-r` and `-g`), under the same keys and with the same values.
    static func options(_ settings: SynthesizerSettings) -> [(key: String, value: Double)] {
        var options: [(String, Double)] = [
            ("synth.polyphony", Double(settings.polyphony)),
            ("synth.midi-channels", Double(Synthesizer.channelCount)),
            ("synth.reverb.active", settings.reverb == nil ? 0 : 1),
            ("synth.chorus.active", settings.chorus == nil ? 0 : 1),
            ("synth.threadsafe-api", 0),
            ("synth.lock-memory", 0),
        ]
        if let reverb = settings.reverb {
            options += [
                ("synth.reverb.room-size", reverb.roomSize), ("synth.reverb.damp", reverb.damping),
                ("synth.reverb.width", reverb.width), ("synth.reverb.level", reverb.level),
            ]
        }
        if let chorus = settings.chorus {
            options += [
                ("synth.chorus.nr", Double(chorus.voices)), ("synth.chorus.level", chorus.level),
                ("synth.chorus.speed", chorus.speed), ("synth.chorus.depth", chorus.depth),
            ]
        }
        return options
    }

    /// `-r`, `-g` and an `-o` for each of `options(settings)`.
    static func settingArguments(_ settings: SynthesizerSettings) -> [String] {
        ["-r", "\(Int(settings.sampleRate))", "-g", "\(settings.gain)"]
            + options(settings).flatMap { key, value in
                ["-o", value.rounded() == value ? "\(key)=\(Int(value))" : "\(key)=\(value)"]
            }
    }

    /// Renders `midi` into a float WAV file the way `fluidsynth -ni -F` does.
    static func render(midi: String, to output: String, settings: SynthesizerSettings, soundFont: String, in folder: TemporaryFolder) throws {
        let arguments =
            ["-ni", "-F", output, "-o", "audio.file.type=wav", "-o", "audio.file.format=float"]
            + settingArguments(settings) + [soundFont, midi]
        _ = try run(arguments, in: folder)
    }

    struct Failure: Error, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var output: String
        var description: String { "fluidsynth \(arguments.joined(separator: " ")) exited with \(status): \(output)" }
    }

    /// Runs fluidsynth and returns what it printed (standard output and error together).
    static func run(_ arguments: [String], in folder: TemporaryFolder) throws -> String {
        let log = folder.file("fluidsynth-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try required())
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let output = try String(contentsOfFile: log, encoding: .utf8)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(arguments: arguments, status: process.terminationStatus, output: output)
        }
        return output
    }
}

/// One song rendered by smfplay and by fluidsynth, measured, and compared when fluidsynth played it.
struct CorpusRender: Sendable {
    var songSeconds: Double
    var result: RenderResult
    var ours: AudioMeasurement
    var fluidSynth: AudioMeasurement
    var comparison: SoundComparison?
    /// The song split across two synthesizers (`cores: 2`), against one.
    var split: SplitRenderCheck
}

/// A split render against the render by one synthesizer: by sound over the first
/// ``CorpusRenders/comparedSeconds``, and sample by sample over the whole song.
struct SplitRenderCheck: Sendable {
    var comparison: SoundComparison
    /// Frames of the split render less those of the whole one.
    var extraFrames: Int
    /// The RMS level of the split render over the whole song, less that of the whole one, in dB.
    var levelDifference: Double
    /// The RMS level of the difference between the two, relative to the whole one's, in dB.
    var differenceLevel: Double

    init(split: String, whole: String) throws {
        comparison = SoundComparison(
            candidate: try CorpusRenders.firstSeconds(of: split), reference: try CorpusRenders.firstSeconds(of: whole),
            sampleRate: 44_100)
        let splitReader = try AudioFileReader(path: FilePath(split))
        let wholeReader = try AudioFileReader(path: FilePath(whole))
        var a = [Float](repeating: 0, count: 2 * 65_536)
        var b = a
        var (splitEnergy, wholeEnergy, differenceEnergy) = (0.0, 0.0, 0.0)
        var (splitFrames, wholeFrames) = (0, 0)
        while true {
            let readA = try a.withUnsafeMutableBufferPointer { try splitReader.read(into: $0) }
            let readB = try b.withUnsafeMutableBufferPointer { try wholeReader.read(into: $0) }
            guard readA > 0 || readB > 0 else { break }
            splitFrames += readA
            wholeFrames += readB
            for index in 0..<2 * max(readA, readB) {
                let x = index < 2 * readA ? Double(a[index]) : 0
                let y = index < 2 * readB ? Double(b[index]) : 0
                splitEnergy += x * x
                wholeEnergy += y * y
                differenceEnergy += (x - y) * (x - y)
            }
        }
        extraFrames = splitFrames - wholeFrames
        levelDifference = 10 * log10(max(splitEnergy, 1e-30) / max(wholeEnergy, 1e-30))
        differenceLevel = 10 * log10(max(differenceEnergy, 1e-30) / max(wholeEnergy, 1e-30))
    }
}

/// The corpus rendered both ways, once, by two workers.
enum CorpusRenders {
    static let workers = 2
    static let settings = DefaultRender.settings()
    /// How much of each song is compared by sound: enough for every part to have played, and a
    /// bound on the time the comparison takes in a debug build.
    static let comparedSeconds = 30.0

    static func render(named name: String) async throws -> CorpusRender {
        let renders = await all.value
        return try #require(renders[name], "\(name) was not rendered").get()
    }

    /// Started by the first test that asks, on threads of its own so that waiting tests hold none.
    private static let all = Task<[String: Result<CorpusRender, any Error>], Never> {
        await OwnThreads.map(OpenMSXCorpus.fileNames, workers: workers) {
            { name in try renderBothWays(midi: OpenMSXCorpus.directory + "/" + name, in: try TemporaryFolder()) }
        }
    }

    /// Renders `midi` with a new `SongRenderer` and with fluidsynth into `folder`, measures both
    /// files and deletes them.
    static func renderBothWays(midi: String, in folder: TemporaryFolder, keepFiles: Bool = false) throws -> CorpusRender {
        let soundFont = try TestSoundFont.required()
        let song = Song(file: try SMFReader().read(path: FilePath(midi)).file)
        // A new synthesizer for each song, as fluidsynth starts afresh for each: a reused one
        // changes the render (see SongRendererTests.songRendersTheSameAfterAnotherSong).
        let renderer = SongRenderer(synthesizer: try Synthesizer(settings: settings, soundFontPath: soundFont))
        let ours = folder.file("smfplay.wav")
        let result = try renderer.render(song, to: FilePath(ours), options: RenderOptions(format: .wav, encoding: .float32))
        let split = folder.file("split.wav")
        _ = try SongRenderer(synthesizer: try Synthesizer(settings: settings, soundFontPath: soundFont))
            .render(song, to: FilePath(split), options: RenderOptions(format: .wav, encoding: .float32), cores: 2)
        let theirs = folder.file("fluidsynth.wav")
        try FluidSynthCLI.render(midi: midi, to: theirs, settings: settings, soundFont: soundFont.string, in: folder)
        defer {
            if !keepFiles {
                try? FileManager.default.removeItem(atPath: ours)
                try? FileManager.default.removeItem(atPath: theirs)
            }
            try? FileManager.default.removeItem(atPath: split)
        }
        let fluidSynth = try AudioMeasurement(path: theirs)
        let comparison =
            fluidSynth.peak > CorpusRenderTests.silence
            ? SoundComparison(candidate: try firstSeconds(of: ours), reference: try firstSeconds(of: theirs), sampleRate: Double(settings.sampleRate))
            : nil
        return CorpusRender(
            songSeconds: song.duration, result: result, ours: try AudioMeasurement(path: ours), fluidSynth: fluidSynth,
            comparison: comparison, split: try SplitRenderCheck(split: split, whole: ours))
    }

    /// The first ``comparedSeconds`` of a rendering, interleaved.
    static func firstSeconds(of path: String) throws -> [Float] {
        let reader = try AudioFileReader(path: FilePath(path))
        var samples = [Float](repeating: 0, count: Int(comparedSeconds) * reader.sampleRate * reader.channels)
        let read = try samples.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
        return Array(samples.prefix(read * reader.channels))
    }
}
