import ArgumentParser
import Configuration
import Library
import Playback
import Resume
import Synthesis
import TerminalUI

struct Resume: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Continue the last queue where it stopped.",
        discussion: CommandHelp.discussion(
            """
            Plays the saved queue from the file and position where the last smfplay stopped \
            (the state is in $XDG_STATE_HOME/smfplay/state.sqlite). Files inside the library \
            are found there even if the library has moved since: point the configuration's \
            `library` (or --library) at its new place. A file changed since it was played \
            starts from its beginning. Keys as in `smfplay play`.
            """, examples: Resume.examples)
    )

    @OptionGroup var library: LibraryOption

    @OptionGroup var playback: PlaybackOptions

    func run() throws {
        let configuration = try playback.configurationOption.load()
        playback.text.readNames(configuration: configuration)
        let recorder = ResumeRecorder(
            stateFolder: XDGDirectories.current().stateFolder, libraryRoot: library.root(configuration: configuration), warn: { printError($0) })
        try Self.continuePlaying(recorder: recorder, playback: playback, configuration: configuration)
    }

    static func continuePlaying(
        recorder: ResumeRecorder, playback: PlaybackOptions, configuration: Configuration,
        preload: SynthesizerPreload? = nil
    ) throws {
        guard let (queue, seconds, notice) = recorder.savedQueue(), queue.current != nil else {
            throw CommandFailure("nothing to resume: play something first (smfplay play PATH, or smfplay browse)")
        }
        if let notice { printError(notice) }
        try Play.play(queue, at: .seconds(seconds), recorder: recorder, playback: playback, configuration: configuration, preload: preload)
    }
}

extension Resume: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [library, playback] }
}

extension Resume: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay resume", does: "go on where smfplay stopped"),
        (command: "smfplay resume --soundfont TimGM6mb", does: "with another SoundFont"),
    ]
}
