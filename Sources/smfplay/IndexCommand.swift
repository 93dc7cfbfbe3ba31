import ArgumentParser
import Configuration
import LibraryIndex
import Loudness
import Playback
import Synthesis
import SystemPackage
import TerminalUI

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Build or bring up to date the library index that `smfplay search` looks in.",
        discussion: CommandHelp.discussion(
            """
            Reads every MIDI file under the library folder once (on all cores) and keeps what \
            search needs: names, folders, titles, RMID files' artists, albums and genres, lyrics, \
            length, standard (GM, GS, XG, GM2). \
            Later runs read only files that are new or changed and forget those that are gone. \
            Titles and lyrics are read with --text-encoding (default: the configuration's \
            text_encoding, else auto); when it changes, the files whose texts it reads otherwise \
            are read again. The index is $XDG_DATA_HOME/smfplay/library.sqlite. Ctrl-C keeps \
            what is done; the next run goes on from there. --loudness then measures every song's \
            loudness (EBU R128) as render sounds it (the configuration's SoundFonts and settings, \
            each folder's .smfplay.toml, the sound options given here), for render --normalize \
            and for play, browse and resume, which bring songs to one loudness as they play: \
            a song measured before with the same sound is skipped; another SoundFont or setting \
            is another sound.
            """, examples: IndexCommand.examples)
    )

    @OptionGroup var library: LibraryOption

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Also measure each song's loudness (EBU R128) as render sounds it, for render --normalize and play's --loudness track.")
    var loudness = false

    @OptionGroup var sound: SoundOptions

    @OptionGroup var text: TextEncodingOption

    @OptionGroup var configurationOption: ConfigurationOption

    func run() throws {
        let configuration = try configurationOption.load()
        text.readNames(configuration: configuration)
        let root = try library.existingRoot(configuration: configuration)
        let interrupt = InterruptTrap()
        let summary: IndexSummary
        do {
            summary = try LibraryIndexUpdate.withDatabase(root: root) { database throws(LibraryIndexError) in
                try LibraryIndexUpdate.run(
                    database: database, root: root, textEncoding: text.encoding(configuration: configuration), quiet: quiet,
                    interrupt: interrupt)
            }
        } catch {
            throw CommandFailure(error.description)
        }
        summary.problems.forEach { printError($0) }
        if let status = interrupt.exitStatus {
            printError("stopped; what was read is kept, and the next `smfplay index` goes on from there")
            throw CommandFailure.stopped(status: status)
        }
        if !quiet {
            summary.unreadable.forEach { printError("warning: \($0)") }
            print(LibraryIndexUpdate.text(summary, root: root))
        }
        if loudness { try measureLoudness(root: root, configuration: configuration, interrupt: interrupt) }
    }

    /// `--loudness`: see ``LibraryLoudness``.
    private func measureLoudness(root: FilePath, configuration: Configuration, interrupt: InterruptTrap) throws {
        if let reason = LoudnessMeter.loadLibrary() { throw CommandFailure(RenderError.loudnessUnmeasurable(reason: reason).description) }
        let memory = IndexedLoudnessMemory(warn: { printError($0) })
        guard memory.open() else { throw CommandFailure.alreadyReported }
        var settings = configuration.render
        sound.apply(to: &settings)
        guard settings.loops != .forever else {
            throw CommandFailure(
                "loops = \"inf\" in \(configuration.path?.text ?? "the configuration") would never end a measurement: give loops a number")
        }
        let soundFonts = try sound.soundFontStack(settings: settings, configurationFile: configuration.path)
        let folders = FolderSettingsForSongs(
            command: SongSettings(
                soundFonts: soundFonts, synthesizer: settings.synthesizerSettings, performance: Performance(), loops: settings.renderOptions().loops,
                textEncoding: nil),
            commandLine: sound.folderKeys, configuration: configuration)
        let measuring = LibraryLoudness(root: root, settings: settings, soundFonts: soundFonts, folders: folders, quiet: quiet)
        let (summary, seconds) = try measuring.run(memory: memory, cancellation: interrupt.cancellation)
        if let status = interrupt.exitStatus {
            printError("stopped; what was measured is kept, and the next `smfplay index --loudness` goes on from there")
            throw CommandFailure.stopped(status: status)
        }
        if !quiet { print(LibraryLoudness.text(summary, seconds: seconds)) }
        if summary.failed > 0 { throw CommandFailure.alreadyReported }
    }
}

extension IndexCommand: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [library, sound, text, configurationOption] }
}

extension IndexCommand: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay index", does: "index the library"),
        (command: "smfplay index --library ~/MIDI", does: "index another library folder"),
        (command: "smfplay index --loudness", does: "index, then measure every song's loudness"),
    ]
}
