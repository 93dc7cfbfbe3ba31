import ArgumentParser
import Playback
import SystemPackage
import TerminalUI
import Thumbnails

#if canImport(Glibc)
    import Glibc
#endif

struct Thumbnail: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Draw a MIDI file as a piano-roll PNG image, for file managers' thumbnails.",
        discussion: CommandHelp.discussion(
            """
            Time runs across, pitch up, one colour per channel, brighter for louder notes. \
            It needs no SoundFont, configuration or home folder, so file managers can run it \
            in their sandbox (see Config/smfplay.thumbnailer). The PNG appears only when \
            complete; a file that cannot be read leaves nothing at OUTPUT.
            """, examples: Thumbnail.examples)
    )

    @Argument(
        help: "The MIDI file (.mid, .kar, .rmi, .midi2, .mus, .xmi, .hmp, .hmi, .rcp, .g36…; a song in an archive as pack.zip/song.mid).",
        completion: .file())
    var input: String

    @Argument(help: "The PNG file to write; - for standard output (a pipe, not a terminal).", completion: .file(extensions: ["png"]))
    var output: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The image's longer side (its width), 16–4096; its height is three quarters of it.", valueName: "pixels"))
    var size = Thumbnailer.defaultSize

    func checkOwnArguments() throws {
        guard Thumbnailer.sizes.contains(size) else { throw ValidationError("--size must be from 16 to 4096 pixels, not \(size)") }
    }

    func run() throws {
        let toPipe = output == StandardInput.argument
        if toPipe, isatty(STDOUT_FILENO) == 1 {
            throw CommandFailure.usage("standard output is a terminal: give a PNG file to write, or send - into a pipe")
        }
        let thumbnailer = Thumbnailer(size: size)
        let input = try CommandLinePath.song(input)
        do {
            if toPipe {
                writeToStandardOutput(try thumbnailer.png(ofMIDIFile: input))
            } else {
                try thumbnailer.write(midiFile: input, to: CommandLinePath.filePath(output))
            }
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

extension Thumbnail: ArgumentChecks {
}

extension Thumbnail: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay thumbnail song.mid song.png", does: "a piano roll of the song"),
        (command: "smfplay thumbnail song.mid big.png --size 512", does: "a larger one"),
    ]
}
