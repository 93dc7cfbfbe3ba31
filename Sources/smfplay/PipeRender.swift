import AudioOutput
import Configuration
import Playback
import RenderJobs
import SMF
import Synthesis
import SystemPackage
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// `smfplay render` with a pipe at either end: the song read from standard input (`-`), the audio
/// written to standard output as it renders (`-o -`), or both. One song, split across the cores given.
///
/// With the audio on standard output, nothing else goes there: progress, the file's line, warnings
/// and the summary go to standard error. A reader that stops early (`| head -c 1000`) ends smfplay
/// as it ends `cat`: by SIGPIPE, left at its default, with nothing said and nothing left behind.
struct PipeRender {
    enum Destination {
        case file(FilePath)
        case standardOutput(AudioFileFormat)
    }

    /// nil: standard input.
    let input: FilePath?
    let destination: Destination
    let quiet: Bool
    let json: Bool

    /// How messages call the stream.
    static let standardOutputName = "standard output"

    /// `songSettings`: the song's own (its folders'), for a song read from a file.
    func run(
        settings: RenderSettings, soundFonts: SoundFontStack, options: RenderOptions, cores: Int,
        songSettings: BatchRenderer.SongSettingsSource
    ) throws {
        let read: SMFReader.Output
        do {
            read = try input.map { try SMFReader().read(path: $0) } ?? StandardInput.read()
        } catch {
            throw CommandFailure("\(error)")
        }
        let renderer: SongRenderer
        do {
            renderer = SongRenderer(synthesizer: try Synthesizer(settings: settings.synthesizerSettings, soundFonts: soundFonts))
        } catch {
            throw CommandFailure(error.description)
        }
        let job = RenderJob(input: inputPath, output: outputPath)
        let outcome = RenderOutcome()
        let display = ProgressDisplay(totalFiles: 1, quiet: quiet)
        let reports = json ? RenderReportPrinter() : nil
        let interrupt = InterruptTrap()
        // A song read from standard input has no file for FluidSynth to read its own bank from.
        let songBank = input.flatMap { options.songBanks.bank(forSongAt: $0, embedded: read.file.embeddedSoundBank) }
        do throws(RenderError) {
            let sound = try input.flatMap { path throws(RenderError) in try songSettings(path) }
            let result = try render(
                Song(rendering: read.file, name: input.map(\.text) ?? StandardInput.name), with: renderer,
                options: options.with(sound).tagging(read.file, input: input),
                sampleRate: settings.sampleRate, cores: cores, songBank: songBank, sound: sound,
                cancellation: interrupt.cancellation
            ) { display.progress(index: 0, fraction: $0) }
            outcome.record(success: result.songSeconds)
            let warnings = result.warnings(reading: read)
            reports?.print(RenderReport(job: job, result: result, warnings: warnings, renderSeconds: display.elapsedSeconds))
            let line = Render.line(output: outputName, result)
            let inputName = input.map(\.text) ?? StandardInput.name
            display.finished(
                index: 0, audioSeconds: result.songSeconds, message: isStreaming || json ? nil : line,
                warnings: warnings.map { "\(inputName): warning: \($0)" })
            // ProgressDisplay writes a plain line to standard output, which the audio fills.
            if isStreaming, !quiet { writeToStandardError(line + "\n") }
        } catch {
            outcome.record(failure: ())
            reports?.print(RenderReport(job: job, error: error.description))
            display.finished(index: 0, audioSeconds: 0, message: error.description, isError: true)
        }
        display.end()
        if let status = interrupt.exitStatus { throw CommandFailure.stopped(status: status) }
        // One song: when it failed, its error line says all there is (a closed pipe gets no more).
        if outcome.failures > 0 { throw CommandFailure.alreadyReported }
        let summary = outcome.summary(skipped: 0, problems: 0, otherShards: 0, seconds: display.elapsedSeconds)
        if !quiet { json || isStreaming ? writeToStandardError(summary + "\n") : print(summary) }
    }

    private func render(
        _ song: Song, with renderer: SongRenderer, options: RenderOptions, sampleRate: Int, cores: Int, songBank: SongSoundBank?,
        sound: SongSettings?, cancellation: Cancellation, progress: (Double) -> Void
    ) throws(RenderError) -> RenderResult {
        switch destination {
        case .file(let path):
            return try renderer.render(
                song, to: path, options: options, cores: cores, songBank: songBank, sound: sound, cancellation: cancellation,
                progress: progress)
        case .standardOutput(let format):
            let writer: AudioStreamWriter
            do throws(AudioFileError) {
                writer = try AudioStreamWriter(
                    fileDescriptor: STDOUT_FILENO, name: Self.standardOutputName, format: format,
                    encoding: options.encoding, sampleRate: sampleRate, channels: 2, tags: options.tags, quality: options.quality)
            } catch {
                throw .output(error)
            }
            return try renderer.render(
                song, streamingTo: writer, options: options, cores: cores, songBank: songBank, sound: sound, cancellation: cancellation,
                progress: progress)
        }
    }

    private var isStreaming: Bool {
        if case .standardOutput = destination { return true }
        return false
    }

    /// The input as the command line gave it, for `--json` reports: `-` for standard input.
    private var inputPath: FilePath {
        input ?? FilePath(StandardInput.argument)
    }

    /// The output as the command line gave it, for `--json` reports (which `-o -` refuses).
    private var outputPath: FilePath {
        switch destination {
        case .file(let path): path
        case .standardOutput: FilePath(StandardInput.argument)
        }
    }

    private var outputName: String {
        switch destination {
        case .file(let path): path.text
        case .standardOutput: Self.standardOutputName
        }
    }
}
