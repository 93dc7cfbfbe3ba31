import ArgumentParser
import Files
import SMF
import SystemPackage
import TerminalUI

struct LyricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lyrics",
        abstract: "Print a MIDI file's lyrics, as plain lines or as timed LRC lines.",
        discussion: CommandHelp.discussion(
            """
            The lyrics are the file's lyric events, or the text events of a karaoke (.kar) file; \
            `/` starts a line and `\\` a verse, as karaoke players show them. With --lrc each line \
            starts with the time it is sung, [mm:ss.xx], for players and editors of LRC files. A \
            file without lyrics is said so on standard error, with exit status 1.
            """, examples: LyricsCommand.examples)
    )

    @Argument(help: "A MIDI file (.mid, .kar, .rmi, or a song in an archive as pack.zip/song.mid).", completion: .file())
    var file: String

    @Flag(help: "Print timed LRC lines ([mm:ss.xx]words) instead of plain lines.")
    var lrc = false

    @OptionGroup var text: TextEncodingOption

    @OptionGroup var configurationOption: ConfigurationOption

    func run() throws {
        let configuration = try configurationOption.load()
        text.readNames(configuration: configuration)
        let path = try CommandLinePath.song(file)
        let song: Song
        do {
            song = Song(file: try SMFReader().read(path: path).file)
        } catch {
            throw CommandFailure(error.description)
        }
        let lyrics = Lyrics(song: song, decoding: text.decoding(for: song.file, configuration: configuration))
        guard !lyrics.isEmpty else {
            throw CommandFailure("\(path.text): no lyrics (no lyric events, and no karaoke text)")
        }
        print(lrc ? lyrics.lrc : lyrics.text)
    }
}

extension LyricsCommand: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [text, configurationOption] }
}

extension LyricsCommand: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay lyrics song.kar", does: "the lyrics as lines"),
        (command: "smfplay lyrics song.kar --lrc", does: "timed, as LRC"),
    ]
}
