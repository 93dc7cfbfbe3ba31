import ArgumentParser
import Configuration
import Foundation
import Library
import Playback
import Resume
import SMF
import Synthesis
import SystemPackage
import TerminalUI

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play MIDI files, folders and playlists through PulseAudio (or PipeWire).",
        discussion: CommandHelp.discussion(
            """
            Folders play every MIDI file under them, folders first, in natural order; \
            M3U playlists play their entries. With no path, the saved queue continues where \
            it stopped (as `smfplay resume`). - plays a song piped in on standard input \
            (curl ... | smfplay play -); keys then come from the terminal, and where it stops \
            is not recorded for resume. Keys on a terminal: space pause, ←/→ seek \
            5 s, ↑/↓ seek 30 s, n next, p previous, r restart, q quit, +/- transpose a \
            semitone, [/] tempo by 5 %, c the channel panel (there: digits and tab select \
            a channel, m mutes it, s solos it, u plays all), l the queue (Enter plays the file selected), ? every key. Karaoke lyrics show under \
            the time line as they are sung. A song too dense for one core plays on several \
            (--cores): with auto it goes on split 0.2 s after one core fell behind, nothing heard \
            twice; with a number every song is split from its start, its keys shared out.
            """, examples: Play.examples)
    )

    @Argument(
        help:
            "MIDI files, folders, archives (ZIP, LZH, 7z, RAR, tar; a song in one as pack.zip/song.mid) or .m3u/.m3u8 playlists, played in the order given; - plays a song read from standard input.",
        completion: .file())
    var paths: [String] = []

    @Flag(help: "Play in a random order.")
    var shuffle = false

    @Option(name: .customLong("repeat"), help: "Repeat one file or all of them: off, one or all.")
    var repeatMode: PlayQueue.RepeatMode = .off

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Start this far into the first file: seconds, m:ss or h:mm:ss.", valueName: "time"),
        transform: TimeArgument.init(parsing:))
    var start: TimeArgument?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Start the first file at a bar and beat of its time signatures (12:3 is bar 12, beat 3), or at a number of seconds.",
            valueName: "bar:beat"),
        transform: SeekArgument.init(parsing:))
    var seek: SeekArgument?

    @OptionGroup var library: LibraryOption

    @OptionGroup var playback: PlaybackOptions

    func checkOwnArguments() throws {
        if start != nil, seek != nil { throw ValidationError("--start and --seek both say where to start: give one") }
    }

    func run() throws {
        try run(preload: nil)
    }

    /// With the SoundFonts `main` started loading from a glance at the command line (`CommandLinePrescan`).
    func run(preload: SynthesizerPreload?) throws {
        let configuration = try playback.configurationOption.load()
        playback.text.readNames(configuration: configuration)
        let libraryRoot = library.root(configuration: configuration)
        guard !paths.isEmpty else {
            let recorder = ResumeRecorder(stateFolder: XDGDirectories.current().stateFolder, libraryRoot: libraryRoot, warn: { printError($0) })
            try Resume.continuePlaying(recorder: recorder, playback: playback, configuration: configuration, preload: preload)
            return
        }
        // Read before anything else: a song that is not there needs no sound server.
        var piped: MIDIFile?
        var pipeFailed = false
        if paths.contains(where: StandardInput.isArgument) {
            do {
                piped = try StandardInput.read().file
            } catch {
                // Alone, it is the command's failure; with other files, one file passed over.
                guard paths.contains(where: { !StandardInput.isArgument($0) }) else { throw CommandFailure(error.description) }
                printError(error.description)
                pipeFailed = true
            }
        }
        var collector = MIDIFileCollector()
        var items: [QueueItem] = []
        for path in paths {
            if StandardInput.isArgument(path) {
                if !pipeFailed { items.append(.standardInput) }
                continue
            }
            let found = collector.files.count
            collector.add(path: CommandLinePath.filePath(path))
            items += collector.files[found...].map(QueueItem.file)
        }
        collector.problems.forEach { printError($0.description) }
        guard !items.isEmpty else {
            throw CommandFailure("nothing to play")
        }
        let someLeftOut = pipeFailed || collector.problems.contains { $0.kind == .unreadable }
        let queue = PlayQueue(
            items: items, repeatMode: repeatMode,
            shuffleSeed: shuffle ? UInt64.random(in: 0...UInt64.max) : nil)
        LibraryIndexUpdate.refreshInBackground(collector.files, root: libraryRoot)
        let position = seek?.position ?? .seconds(start?.seconds ?? 0)
        var preloaded: [QueueItem: Song] = piped.map { [.standardInput: Song(file: $0)] } ?? [:]
        if position != .seconds(0), let first = queue.current {
            // Read now to check the start against it, and kept: the player need not read it again.
            let song = preloaded[first] ?? first.file.flatMap { try? Song(file: SMFReader().read(path: $0).file) }
            preloaded[first] = try checkedStart(position, in: song, item: first)
        }
        // A song from standard input cannot be opened again: a queue with it is not recorded for
        // resume (no recorder takes the state's lock, which a player that records may want), and
        // the keys come from the terminal, since standard input has been read to its end (also
        // when what came through it was no song).
        try Self.play(
            queue, at: position,
            recorder: piped == nil
                ? ResumeRecorder(stateFolder: XDGDirectories.current().stateFolder, libraryRoot: libraryRoot, warn: { printError($0) }) : nil,
            playback: playback, configuration: configuration, preload: preload, preloaded: preloaded,
            keyInput: paths.contains(where: StandardInput.isArgument) ? .controllingTerminal() : .standardInput)
        // What was played was played; a file given that was not is said, and the status says so.
        if someLeftOut { throw CommandFailure.alreadyReported }
    }

    /// The first song, once `--start` or `--seek` has been found to lie within it: a start past
    /// its end skipped it, and every song after, saying nothing. Nil when the file could not be
    /// read (the player reports it, and goes on with the next file from its beginning).
    private func checkedStart(_ position: SongPosition, in song: Song?, item: QueueItem) throws(CommandFailure) -> Song? {
        guard let song else { return nil }
        let option = seek.map { "--seek \($0.text)" } ?? start.map { "--start \($0.text)" } ?? ""
        guard let seconds = position.seconds(in: song, meter: MeterMap(song: song)) else {
            throw .usage("\(option): \(item.displayName) has no such bar and beat")
        }
        guard seconds < song.duration else {
            throw .usage("\(option) is past the end of \(item.displayName), which lasts \(formatDuration(song.duration))")
        }
        return song
    }

    /// Plays a queue to its end (or until the user quits or a signal comes), recording where it is.
    /// `preload` is the SoundFonts' load started ahead, if any (see `CommandLinePrescan`). `preloaded`
    /// holds songs read already, by their queue item (see `Player.preloadedSongs`);
    /// without a recorder, nothing is recorded for resume.
    /// `recorder` is made once the music has started: opening the resume state (its lock and its
    /// database) is no reason for the first sound to wait.
    static func play(
        _ queue: PlayQueue, at position: SongPosition, recorder makeRecorder: @autoclosure () -> ResumeRecorder?, playback: PlaybackOptions,
        configuration: Configuration, preload: SynthesizerPreload? = nil, preloaded: [QueueItem: Song] = [:],
        keyInput: KeyInput = .standardInput
    ) throws {
        // The first song is read while the output connects and the SoundFont loads.
        let first = queue.current.flatMap { preloaded[$0] == nil ? $0.file : nil }
        let player = try playback.makePlayer(configuration: configuration, readingAhead: first, preload: preload, onProblem: { printError($0) })
        player.preloadedSongs = preloaded
        let interrupt = InterruptTrap()
        // Each file that could not be read has been reported; the saved state stays as it was.
        guard player.play(queue, at: position) else {
            player.close()
            throw CommandFailure("nothing in the queue could be played")
        }
        let recorder = makeRecorder()
        var session = PlaySession(
            player: player, interactive: keyInput.isInteractive, cancellation: interrupt.cancellation,
            reportsUnderruns: playback.verbose, showsKeyboard: !playback.noKeyboard,
            textDecoding: playback.textDecoding(configuration: configuration),
            onUpdate: { recorder?.record($0, queue: player.queue, placeChanged: $1) },
            mediaKeys: playback.makeMediaKeys(configuration: configuration, onProblem: { printError($0) }))
        session.keyInput = keyInput.fileDescriptor
        let ending = session.run()
        if ending == .queueEnded { recorder?.recordQueueEnd(of: player.queue, firstPassedOver: player.firstPassedOverPlace) }
        if playback.verbose { printError("output underruns: \(player.update().underruns)") }
        player.close()
        if let signalStatus = interrupt.exitStatus { throw CommandFailure.stopped(status: signalStatus) }
        if ending == .outputFailed { throw CommandFailure(nil, status: .noSoundServer) }
        if player.hasPassedOverFiles { throw CommandFailure.alreadyReported }
    }
}

extension Play: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [library, playback] }
}

extension Play: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay song.mid", does: "play a file: play is the default"),
        (command: "smfplay play Chopin/ --shuffle", does: "a folder, in random order"),
        (command: "smfplay play song.mid --start 1:30", does: "from 1 minute 30 in"),
    ]
}
