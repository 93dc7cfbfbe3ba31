import ArgumentParser
import AudioOutput
import Configuration
import Foundation
import Library
import Playback
import Synthesis

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play MIDI files, folders and playlists through PulseAudio (or PipeWire).",
        discussion: """
        Folders play every MIDI file under them, folders first, in natural order; \
        M3U playlists play their entries. Keys on a terminal: space pause, ←/→ seek \
        5 s, ↑/↓ seek 30 s, n next, p previous, r restart, q quit. Exit status: 0 \
        done, 1 nothing playable, 69 no sound server, 130/143 stopped by a signal.
        """
    )

    /// Exit status when there is no sound server to play through (EX_UNAVAILABLE).
    static let noServerStatus: Int32 = 69

    @Argument(help: "MIDI files, folders or .m3u/.m3u8 playlists, played in the order given.", completion: .file())
    var paths: [String]

    @Flag(help: "Play in a random order.")
    var shuffle = false

    @Option(name: .customLong("repeat"), help: "Repeat one file or all of them: off, one or all.")
    var repeatMode: String = "off"

    @Option(help: ArgumentHelp("Start this far into the first file: seconds or m:ss.", valueName: "time"))
    var start: String?

    @Flag(inversion: .prefixedNo, help: "After a seek, strike again the notes held across it (organ and string pads keep sounding). Default: the configuration's chase_notes, else off.")
    var chaseNotes: Bool?

    @Option(help: ArgumentHelp("Output latency in milliseconds (default: the configuration's latency_ms, else 50).", valueName: "ms"))
    var latency: Int?

    @Option(help: ArgumentHelp("PulseAudio server address (default: $PULSE_SERVER or the desktop's).", valueName: "address"))
    var server: String?

    @Option(help: ArgumentHelp("A SoundFont file, or the name of one in the SoundFont folders.", valueName: "path-or-name"))
    var soundfont: String?

    @Option(help: "Synthesizer gain, 0–10.")
    var gain: Double?

    @Flag(help: "Turn the reverb off.")
    var noReverb = false

    @Flag(help: "Turn the chorus off.")
    var noChorus = false

    @Flag(name: .shortAndLong, help: "Report output underruns when done.")
    var verbose = false

    @OptionGroup var configurationOption: ConfigurationOption

    func validate() throws {
        guard PlayQueue.RepeatMode(rawValue: repeatMode) != nil else { throw ValidationError("--repeat must be off, one or all, not \(repeatMode)") }
        if let start, Self.seconds(from: start) == nil { throw ValidationError("--start must be seconds or m:ss, not \(start)") }
        if let latency, !AudioSettings.latencyRange.contains(latency) { throw ValidationError("--latency must be from 5 to 2000 ms, not \(latency)") }
        if let gain, !RenderSettings.gainRange.contains(gain) { throw ValidationError("--gain must be from 0 to 10, not \(gain)") }
    }

    func run() throws {
        let configuration = try configurationOption.load()
        var settings = configuration.render
        var audio = configuration.audio
        if let latency { audio.latencyMilliseconds = latency }
        if let chaseNotes { audio.chaseNotes = chaseNotes }
        if let server { audio.server = server }
        if let gain { settings.gain = gain }
        if noReverb { settings.reverb.isEnabled = false }
        if noChorus { settings.chorus.isEnabled = false }
        var collector = MIDIFileCollector()
        paths.forEach { collector.add(path: $0) }
        collector.problems.forEach { printError($0.description) }
        guard !collector.files.isEmpty else {
            printError("nothing to play")
            throw ExitCode.failure
        }
        let soundFont: String
        do {
            soundFont = try SoundFontLocator.standard(directories: XDGDirectories.current())
                .locate(requested: soundfont, configured: settings.soundFont, configurationFile: configuration.path)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        let synthesizer: Synthesizer
        do {
            synthesizer = try Synthesizer(settings: settings.synthesizerSettings, soundFontPath: soundFont)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        let queue = PlayQueue(items: collector.files, repeatMode: PlayQueue.RepeatMode(rawValue: repeatMode) ?? .off,
                              shuffleSeed: shuffle ? UInt64.random(in: 0...UInt64.max) : nil)
        let player: Player
        do {
            player = try Player(synthesizer: synthesizer, queue: queue, chaseNotes: audio.chaseNotes, tailLimitSeconds: settings.tail,
                                makeSink: { render in
                                    PulseAudioPlaybackSink(try PulseAudioSink(server: audio.server, streamName: "smfplay", sampleRate: settings.sampleRate,
                                                                              latency: .milliseconds(audio.latencyMilliseconds), render: render))
                                },
                                onProblem: { printError($0) })
        } catch {
            printError("\(error)")
            throw ExitCode(Self.noServerStatus)
        }
        let interrupt = InterruptTrap()
        player.start(atSeconds: start.flatMap(Self.seconds(from:)) ?? 0)
        let status = PlaySession(player: player, interactive: TerminalSession.isInteractive, cancellation: interrupt.cancellation).run()
        if verbose { printError("output underruns: \(player.update().underruns)") }
        if let signalStatus = interrupt.exitStatus { throw ExitCode(signalStatus) }
        if status != 0 { throw ExitCode(status) }
    }

    /// Seconds from "75", "75.5" or "1:15".
    static func seconds(from text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for part in parts {
            guard let value = Double(part), value >= 0 else { return nil }
            total = total * 60 + value
        }
        return total
    }
}
