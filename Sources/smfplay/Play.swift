import ArgumentParser
import Configuration
import Foundation
import Library
import Playback
import SystemPackage

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play MIDI files, folders and playlists through PulseAudio (or PipeWire).",
        discussion: """
        Folders play every MIDI file under them, folders first, in natural order; \
        M3U playlists play their entries. With no path, the saved queue continues where \
        it stopped (as `smfplay resume`). Keys on a terminal: space pause, ←/→ seek \
        5 s, ↑/↓ seek 30 s, n next, p previous, r restart, q quit, +/- transpose a \
        semitone, [/] tempo by 5 %, c the channel panel (there: digits and tab select \
        a channel, m mutes it, s solos it, u plays all). Karaoke lyrics show under \
        the time line as they are sung. Exit status: 0 \
        done, 1 nothing playable, 69 no sound server, 130/143/129 stopped by Ctrl-C, SIGTERM \
        or SIGHUP (the terminal closed).
        """
    )

    @Argument(help: "MIDI files, folders or .m3u/.m3u8 playlists, played in the order given.", completion: .file())
    var paths: [String] = []

    @Flag(help: "Play in a random order.")
    var shuffle = false

    @Option(name: .customLong("repeat"), help: "Repeat one file or all of them: off, one or all.")
    var repeatMode: String = "off"

    @Option(help: ArgumentHelp("Start this far into the first file: seconds or m:ss.", valueName: "time"))
    var start: String?

    @Option(help: ArgumentHelp("Start the first file at a bar and beat of its time signatures (12:3 is bar 12, beat 3), or at a number of seconds.", valueName: "bar:beat"))
    var seek: String?

    @OptionGroup var library: LibraryOption

    @OptionGroup var playback: PlaybackOptions

    func validate() throws {
        guard PlayQueue.RepeatMode(rawValue: repeatMode) != nil else { throw ValidationError("--repeat must be off, one or all, not \(repeatMode)") }
        if let start, Self.seconds(from: start) == nil { throw ValidationError("--start must be seconds or m:ss, not \(start)") }
        if let seek, SongPosition(seek) == nil { throw ValidationError("--seek must be bar:beat (from 1:1) or seconds, not \(seek)") }
        if start != nil, seek != nil { throw ValidationError("--start and --seek both say where to start: give one") }
    }

    func run() throws {
        let configuration = try playback.configurationOption.load()
        let recorder = ResumeRecorder(libraryRoot: library.root(configuration: configuration), warn: { printError($0) })
        guard !paths.isEmpty else {
            try Resume.continuePlaying(recorder: recorder, playback: playback, configuration: configuration)
            return
        }
        var collector = MIDIFileCollector()
        paths.forEach { collector.add(path: CommandLinePath.filePath($0)) }
        collector.problems.forEach { printError($0.description) }
        guard !collector.files.isEmpty else {
            printError("nothing to play")
            throw ExitCode.failure
        }
        let queue = PlayQueue(items: collector.files, repeatMode: PlayQueue.RepeatMode(rawValue: repeatMode) ?? .off,
                              shuffleSeed: shuffle ? UInt64.random(in: 0...UInt64.max) : nil)
        LibraryIndexUpdate.refreshInBackground(collector.files, root: library.root(configuration: configuration))
        let position = seek.flatMap(SongPosition.init) ?? .seconds(start.flatMap(Self.seconds(from:)) ?? 0)
        try Self.play(queue, at: position, recorder: recorder, playback: playback, configuration: configuration)
    }

    /// Plays a queue to its end (or until the user quits or a signal comes), recording where it is.
    static func play(_ queue: PlayQueue, at position: SongPosition, recorder: ResumeRecorder, playback: PlaybackOptions,
                     configuration: Configuration) throws {
        let player: Player
        do {
            player = try playback.makePlayer(configuration: configuration, onProblem: { printError($0) })
        } catch {
            printError(error.description)
            throw ExitCode(error.status)
        }
        let interrupt = InterruptTrap()
        // Each file that could not be read has been reported; the saved state stays as it was.
        guard player.play(queue, at: position) else {
            player.close()
            printError("nothing in the queue could be played")
            throw ExitCode.failure
        }
        let ending = PlaySession(player: player, interactive: TerminalSession.isInteractive, cancellation: interrupt.cancellation,
                                 reportsUnderruns: playback.verbose, showsKeyboard: !playback.noKeyboard,
                                 textDecoding: playback.textDecoding(configuration: configuration),
                                 onUpdate: { recorder.record($0, queue: player.queue, placeChanged: $1) },
                                 mediaKeys: playback.makeMediaKeys(configuration: configuration, onProblem: { printError($0) })).run()
        if ending == .queueEnded { recorder.recordQueueEnd() }
        if playback.verbose { printError("output underruns: \(player.update().underruns)") }
        player.close()
        if let signalStatus = interrupt.exitStatus { throw ExitCode(signalStatus) }
        if ending == .outputFailed { throw ExitCode(PlaybackOptions.noServerStatus) }
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
