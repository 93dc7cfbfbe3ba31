import ArgumentParser
import AudioOutput
import Configuration
import Files
import Foundation
import Library
import Loudness
import Playback
import RenderJobs
import Synthesis
import SystemPackage
import TerminalUI

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render MIDI files to audio files (WAV, FLAC, Ogg Vorbis, MP3, Opus, AIFF).",
        discussion: CommandHelp.discussion(
            """
            One file: smfplay render song.mid -o song.flac (the format follows the extension). \
            A folder: smfplay render Library -o Rendered renders every MIDI file under it into \
            the same folders under Rendered, skipping files rendered since their MIDI file last \
            changed. Pipes: smfplay render song.mid -o - | ffmpeg -i - song.opus streams the \
            audio to standard output as it renders (WAV with its sizes left open, FLAC, Ogg \
            Vorbis, MP3, Opus or raw samples; progress and messages go to standard error), and \
            curl ... | smfplay render - -o song.flac reads the song from standard input. Settings \
            not given here come from the configuration file \
            ($XDG_CONFIG_HOME/smfplay/config.toml; see Config/smfplay.toml for every key). \
            On a cluster, each task of a Slurm job array or a Kubernetes Indexed Job renders its \
            own share of one collection into the same output folder: smfplay render --manifest \
            files.txt -o Rendered --shard auto --report report.jsonl (see Examples/cluster); \
            smfplay report merges the reports. -o - writes wav, flac, ogg, mp3, opus or raw, not with \
            --normalize or --json. --json and --report give each file's input, output, seconds, \
            peak dBFS, the limiter's largest gain reduction, loudness (LUFS), true peak (dBTP), \
            the normalizing gain (dB), warnings or the error; the report also \
            its status (rendered, skipped, failed), song and render seconds, and shard. --manifest: \
            paths relative to the manifest's folder mirror its tree, absolute ones render by their \
            name alone; --write-manifest writes them relative to its folder where they are under \
            it. --shard splits the files into N parts of about the same total size, the same on \
            every machine and in every order; auto takes I and N from SLURM_ARRAY_TASK_ID and \
            SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX and SMFPLAY_SHARD_COUNT. --jobs: a \
            folder's files start largest first, so that the cores finish together; a single \
            file, and the last one once the others are done, are split across the cores left, \
            their keys shared out among synthesizers. --stems: a folder for each song (named after it, \
            under -o) holds a file per channel that sounds, each with its own reverb and \
            chorus, named after the channel (B01 for channel 1 of the second port) and its \
            instrument, and Mix.wav; the stems are not limited, so that they sum to the mix of \
            --no-limiter, and one synthesizer renders them (no split). Each file is tagged with the song's title (else its \
            file's name) and an RMID file's INFO artist, album, genre, date, comment and \
            copyright (MP3 in an ID3v2 tag, in UTF-8); a WAV or raw stream carries none, an MP3 \
            stream only an ID3v1 tag. MP3, Opus and Ogg Vorbis are lossy: they have no bit depth, \
            and --bits does nothing for them. Opus is made at 48000 Hz and MP3 at 44100 Hz unless \
            --sample-rate (or the configuration's sample_rate) is another rate they take (Opus: \
            8000, 12000, 16000, 24000; MP3: 8000, 11025, 12000, 16000, 22050, 24000, 32000, \
            48000); a --sample-rate they cannot take is refused. --quality: from 0 (the smallest file) to 10 (the best sound); Ogg Vorbis as \
            oggenc's -q (default 6), MP3 as LAME's -V 10-Q (default 8, that is -V 2, about 190 \
            kbit/s), Opus at 6+25*Q kbit/s a channel (default: libopus's, about 120 kbit/s for \
            stereo), FLAC, lossless at any quality, at compression level 8-0.8*Q (default 5); \
            WAV and AIFF have no encoder.
            """, examples: Render.examples)
    )

    @Argument(
        help: "MIDI files, or folders or archives (ZIP, LZH, 7z, RAR, tar) of them; - reads one song from standard input (then -o is needed).",
        completion: .file())
    var inputs: [String] = []

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The audio file, or the folder to render several into; - streams one song to standard output.", valueName: "path"))
    var output: String?

    @Option(
        help:
            "wav, flac, ogg, mp3, opus or aiff (default: the output's extension, else the configuration's); with -o -, wav, flac, ogg, mp3, opus or raw (headerless little-endian samples)."
    )
    var format: AudioFileFormat?

    @Option(
        parsing: .unconditional,
        help: "Samples per second, 8000–96000; Opus takes 8000, 12000, 16000, 24000 or 48000 (its default), MP3 its nine rates up to 48000.")
    var sampleRate: Int?

    @Option(help: "Sample format: 16, 24 or 32f (32-bit float); nothing for MP3, Opus and Ogg Vorbis, which are lossy and have no bit depth.")
    var bits: SampleEncoding?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Encoder quality, 0 (smallest file) to 10 (best sound), for FLAC, Ogg Vorbis, MP3 and Opus (default: each format's own).",
            valueName: "0-10"))
    var quality: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Longest tail after the last event, in seconds; it ends sooner once silent.", valueName: "seconds"))
    var tail: Double?

    @Flag(
        help:
            "Bring each song (each folder, with --loudness folder) to the loudness target (EBU R128), its true peaks at most -1 dBTP; --gain is a trim on top. (It used to do what --normalize-peak does.)"
    )
    var normalize = false

    @Flag(help: "Scale each render so that its highest sample is at -1 dBFS (loudness left as it falls).")
    var normalizePeak = false

    @OptionGroup var loudness: LoudnessOptions

    @Flag(
        help:
            "Write each channel that sounds to a file of its own (a stem, with its reverb and chorus, not limited), in a folder named after the song under -o, with the mix."
    )
    var stems = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Cores to use (default: all): files render side by side, largest first, the last split across the cores left.", valueName: "cores"))
    var jobs: Int?

    @Flag(help: "Render files even when their output is newer than the MIDI file.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Print a JSON object a file on standard output (progress and the summary go to standard error).")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Also render the MIDI files listed in this file, one a line (-: standard input); relative paths mirror their tree.", valueName: "file"),
        completion: .file())
    var manifest: String?

    @Option(
        help: ArgumentHelp("List the MIDI files under the inputs in this file, for --manifest, and render nothing.", valueName: "file"),
        completion: .file())
    var writeManifest: String?

    @Option(
        help: ArgumentHelp(
            "Render only shard I of N (from 0), the files split by size; auto: from a Slurm job array or a Kubernetes Indexed Job.",
            valueName: "I/N|auto"),
        transform: ShardArgument.init(parsing:))
    var shard: ShardArgument?

    @Option(
        help: ArgumentHelp(
            "Append a JSON line a file to this file (with --shard, FILE.shard-I-of-N.jsonl); smfplay report sums them up.", valueName: "file.jsonl"),
        completion: .file())
    var report: String?

    @OptionGroup var performance: PerformanceOptions

    @OptionGroup var sound: SoundOptions

    @OptionGroup var text: TextEncodingOption

    @OptionGroup var configurationOption: ConfigurationOption

    /// The checks that need only the arguments: made here, ArgumentParser shows render's usage with them.
    func checkOwnArguments() throws {
        if let sampleRate, !RenderSettings.sampleRateRange.contains(sampleRate) {
            throw ValidationError("--sample-rate must be from 8000 to 96000, not \(sampleRate)")
        }
        if let sampleRate, let format = commandLineFormat, let problem = Self.sampleRateProblem(sampleRate, format: format) {
            throw ValidationError(problem)
        }
        if let quality, EncodingQuality(quality) == nil {
            throw ValidationError("--quality must be from 0 to 10, not \(quality)")
        }
        if let tail, !RenderSettings.tailRange.contains(tail) { throw ValidationError("--tail must be from 0 to 60 seconds, not \(tail)") }
        if normalize, normalizePeak { throw ValidationError("--normalize and --normalize-peak: give one of them") }
        if let mode = loudness.loudness {
            guard normalize else { throw ValidationError("--loudness \(mode.rawValue): render brings songs to a loudness only with --normalize") }
            if mode == .off { throw ValidationError("--loudness off with --normalize: give track or folder") }
            if mode == .folder, shard != nil {
                throw ValidationError("--loudness folder needs every song of a folder measured by one render: not with --shard")
            }
        }
        if let jobs, jobs < RenderSettings.minimumJobs { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
        if performance.loopsForever { throw ValidationError("--loops inf would never end a render: give a number of loops") }
        guard !inputs.isEmpty || manifest != nil else { throw ValidationError("give MIDI files, folders or --manifest FILE") }
        if writeManifest != nil {
            guard manifest == nil, shard == nil, report == nil, output == nil, !readsStandardInput else {
                throw ValidationError("--write-manifest lists files and renders nothing: give it with the folders to list alone")
            }
            return
        }
        if readsStandardInput || streams, manifest != nil || shard != nil || report != nil {
            throw ValidationError("--manifest, --shard and --report are for collections of files: not with - or -o -")
        }
        if stems {
            if streams { throw ValidationError("--stems writes a folder of files for each song, which -o - cannot stream: give -o FOLDER") }
            if readsStandardInput { throw ValidationError("--stems names each song's folder after its file: not with - (standard input)") }
            // A folder named `x.wav` is what the user did not mean: the mix is each folder's Mix.wav.
            if let output, let outputPath, !output.hasSuffix("/"), AudioFileFormat(path: outputPath) != nil {
                throw ValidationError(
                    "--stems writes a folder of files for each song, its mix among them: -o names a folder to put them in, not \(output)")
            }
            if normalize || normalizePeak {
                throw ValidationError(
                    "--stems writes the stems at the level they sum to the mix: not with \(normalize ? "--normalize" : "--normalize-peak")")
            }
        }
        if readsStandardInput {
            guard inputs.count == 1 else { throw ValidationError("- (standard input) renders alone: give no other input with it") }
            guard let output else { throw ValidationError("-o is needed when the song comes from standard input: it has no name to give the audio") }
            if !streams, output.hasSuffix("/") || outputPath?.isFolder == true {
                throw ValidationError("-o \(output): name an audio file; a song from standard input has no name to give it in a folder")
            }
        }
        if streams {
            try validateStream()
            return
        }
        if let format, !format.writesFiles {
            throw ValidationError("--format \(format.rawValue) writes headerless samples for a pipe: use it with -o -")
        }
        guard output != nil || (manifest == nil && RenderPlan.isOneFile(inputPaths)) else {
            throw ValidationError("-o FOLDER is needed to render a folder, a playlist or several files")
        }
        // A song in an archive or in an XMI file of several (`pack.zip/x.mid`, `music.xmi/2`) has no
        // folder on disk for its audio to go beside.
        if output == nil, let input = inputPaths.first, case let holder = input.removingLastComponent(), !holder.isEmpty, !holder.isFolder {
            throw ValidationError("-o is needed to render \(input.text): it is in \(holder.text), not in a folder the audio can go in")
        }
        // A folder named `album.flac` is what the user did not mean: each song gets a file of its own in it.
        if !stems, manifest != nil || !RenderPlan.isOneFile(inputPaths), let output, let outputPath, !output.hasSuffix("/"),
            !outputPath.isFolder, AudioFileFormat(path: outputPath) != nil
        {
            throw ValidationError(
                "-o names the folder each song's audio file goes in when rendering a folder, a playlist or several files, not \(output) (end it in / for a folder of that name)"
            )
        }
        if !stems, readsStandardInput || RenderPlan.isOneFile(inputPaths), format == nil, let output, let outputPath,
            !output.hasSuffix("/"), !outputPath.isFolder, AudioFileFormat(path: outputPath) == nil
        {
            throw ValidationError("-o \(output): end the name in .wav, .flac, .ogg, .mp3, .opus or .aiff, or give --format")
        }
        // `-o song.flac --format wav` would put WAV bytes in a file every player takes for FLAC.
        if let format, let output, let outputPath, !outputPath.isFolder, let named = AudioFileFormat(path: outputPath), named != format {
            throw ValidationError("-o \(output) names a \(named.displayName) file, and --format asks for \(format.displayName): give one of them")
        }
    }

    /// `-o -`: what the stream cannot do, refused before any work.
    private func validateStream() throws {
        guard inputs.count == 1, readsStandardInput || RenderPlan.isOneFile(inputPaths) else {
            throw ValidationError("-o - streams one song: give one MIDI file, not a folder, a playlist or several files")
        }
        if normalize || normalizePeak {
            throw ValidationError(
                "\(normalize ? "--normalize" : "--normalize-peak") needs the whole render before its first sample, so it cannot stream to -o -: render to a file"
            )
        }
        if json { throw ValidationError("--json prints to standard output, which -o - fills with audio") }
        if let format, !format.streams {
            throw ValidationError(
                "\(format.rawValue) cannot stream to -o - (its header holds the length, known only at the end): use --format wav, flac, ogg, mp3, opus or raw"
            )
        }
    }

    /// `--sample-rate` for a format that cannot take it (MP3's and Opus's few rates): what the
    /// usage error says.
    private static func sampleRateProblem(_ sampleRate: Int, format: AudioFileFormat) -> String? {
        guard !format.supportedSampleRates.contains(sampleRate) else { return nil }
        return "--sample-rate \(sampleRate): \(format.rawValue) takes \(format.supportedSampleRates)"
    }

    /// The output's format as the command line names it (`--format`, else the extension of one
    /// song's `-o`); nil leaves it to the configuration.
    private var commandLineFormat: AudioFileFormat? {
        if let format { return format }
        guard !streams, inputs.count == 1, let outputPath else { return nil }
        return AudioFileFormat(path: outputPath)
    }

    /// `-o -`: the audio goes to standard output.
    private var streams: Bool { output == StandardInput.argument }
    /// `-` among the inputs: the song comes from standard input.
    private var readsStandardInput: Bool { inputs.contains(where: StandardInput.isArgument) }

    /// The inputs and the output as the shell passed them, names' bytes and all.
    private var inputPaths: [FilePath] { inputs.map(CommandLinePath.filePath) }
    private var outputPath: FilePath? { output.map(CommandLinePath.filePath) }

    func run() throws {
        if let writeManifest {
            try Self.writeManifest(of: inputPaths, to: CommandLinePath.filePath(writeManifest))
            return
        }
        let shard = try resolvedShard()
        let configuration = try configurationOption.load()
        text.readNames(configuration: configuration)
        var settings = configuration.render
        try apply(to: &settings, configurationFile: configuration.path)
        // Said once, before anything is made, rather than by every song of a batch.
        if normalize, let reason = LoudnessMeter.loadLibrary() { throw CommandFailure(RenderError.loudnessUnmeasurable(reason: reason).description) }
        let soundFonts = try sound.soundFontStack(settings: settings, configurationFile: configuration.path)
        if streams || readsStandardInput {
            try renderThroughPipe(settings: settings, soundFonts: soundFonts, configuration: configuration)
            return
        }
        let plan: RenderPlan
        let reportLog: RenderReportLog?
        do {
            let list = try manifest.map {
                StandardInput.isArgument($0) ? try InputManifest.fromStandardInput() : try InputManifest(contentsOf: CommandLinePath.filePath($0))
            }
            plan = try RenderPlan(
                inputs: inputPaths, manifest: list, output: outputPath, outputIsFolder: stems || output?.hasSuffix("/") == true,
                format: settings.format, force: force, shard: shard, stems: stems)
            reportLog = try report.map { try RenderReportLog(CommandLinePath.filePath($0), shard: shard, warn: { printError($0) }) }
        } catch {
            throw CommandFailure("\(error)")
        }
        plan.problems.forEach { printError($0.description) }
        for problem in plan.problems {
            if let input = problem.input { reportLog?.append(RenderReport(problem: problem, input: input)) }
        }
        plan.skipped.forEach { reportLog?.append(RenderReport(skipped: $0)) }
        // A shard may be given none of the files: nothing to do is then no failure.
        guard !plan.jobs.isEmpty || !plan.skipped.isEmpty || (plan.otherShards > 0 && plan.problems.isEmpty) else {
            // Inputs that give nothing are reported (a folder without MIDI files); an empty manifest is not.
            guard plan.problems.isEmpty, let manifest else { throw CommandFailure.alreadyReported }
            throw CommandFailure(
                "\(StandardInput.isArgument(manifest) ? StandardInput.name : manifest): the manifest lists no files: nothing to render")
        }
        let cores = settings.jobCount(processorCount: BatchRenderer.availableCores)
        let options = try renderOptions(settings, configuration: configuration)
        // A shard of a cluster render keeps nothing: its home is often on a network file system,
        // where SQLite's shared memory does not work; it measures what it writes.
        let loudnessMemory = shard == nil ? IndexedLoudnessMemory(warn: { printError($0) }) : nil
        var renderer: BatchRenderer?
        do {
            renderer = try BatchRenderer(
                settings: settings.synthesizerSettings, soundFonts: soundFonts, options: options, cores: cores, jobCount: plan.jobs.count,
                songSettings: folderSettings(settings, soundFonts: soundFonts, options: options, configuration: configuration),
                loudnessMemory: loudnessMemory)
        } catch {
            throw CommandFailure(error.description)
        }
        let interrupt = InterruptTrap()
        let cancellation = interrupt.cancellation
        let jobs: [RenderJob]
        if normalize, settings.loudnessMode == .folder, let renderer, let loudnessMemory {
            let measuring = RenderFolderLoudness(renderer: renderer, memory: loudnessMemory, quiet: quiet)
            jobs = measuring.levelled(plan.jobs, cancellation: cancellation) ?? []
        } else {
            jobs = plan.jobs
        }
        let outcome = RenderOutcome()
        let display = ProgressDisplay(totalFiles: jobs.count, quiet: quiet)
        let reports = json ? RenderReportPrinter() : nil
        let times = RenderTimes()
        let notStarted = renderer?.run(jobs, cancellation: cancellation) { event in
            switch event {
            case .started(let index):
                times.started(index)
            case .progress(let index, let fraction):
                display.progress(index: index, fraction: fraction)
            case .finished(let index, let result, let warnings):
                outcome.record(success: result.songSeconds)
                let report = RenderReport(job: jobs[index], result: result, warnings: warnings, renderSeconds: times.seconds(since: index))
                reports?.print(report)
                reportLog?.append(report)
                display.finished(
                    index: index, audioSeconds: result.songSeconds,
                    message: reports == nil ? Self.line(output: jobs[index].output.text, result) : nil,
                    warnings: warnings.map { "\(jobs[index].input.text): warning: \($0)" })
            case .failed(let index, let error):
                outcome.record(failure: ())
                // A render stopped by a signal is no failure of the file: the next run does it.
                if !cancellation.isCancelled {
                    reportLog?.append(RenderReport(job: jobs[index], error: error.description))
                }
                reports?.print(RenderReport(job: jobs[index], error: error.description))
                display.finished(index: index, audioSeconds: 0, message: error.description, isError: true)
            case .known:
                // Only measuring (`index --loudness`) reports songs it knows.
                break
            }
        }
        // The synthesizers go before the index opens to keep what was measured (IndexedLoudnessMemory).
        renderer = nil
        loudnessMemory?.flush()
        display.end()
        if let notStarted, !notStarted.isEmpty {
            for index in notStarted { reportLog?.append(RenderReport(job: jobs[index], error: Self.notStartedForFullDisk)) }
            printError(
                "the disk is full: stopped with \(notStarted.count) file\(notStarted.count == 1 ? "" : "s") not rendered; free some space and run the same command again (the files rendered are skipped)"
            )
        }
        if let status = interrupt.exitStatus {
            printError("stopped; files not finished were not written")
            throw CommandFailure.stopped(status: status)
        }
        let summary = outcome.summary(
            skipped: plan.skipped.count, problems: plan.problems.count, otherShards: plan.otherShards, seconds: display.elapsedSeconds)
        if !quiet || outcome.failures > 0 { json ? writeToStandardError(summary + "\n") : print(summary) }
        // A report that lacks lines was said when the first could not be written.
        if outcome.failures > 0 || !plan.problems.isEmpty || reportLog?.linesLeftOut ?? 0 > 0 { throw CommandFailure.alreadyReported }
    }

    /// One song through a pipe (`-` or `-o -`): see `PipeRender`.
    private func renderThroughPipe(settings: RenderSettings, soundFonts: SoundFontStack, configuration: Configuration) throws {
        let destination: PipeRender.Destination
        if streams {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw CommandFailure.usage("standard output is a terminal: give an audio file to write, or send -o - into a pipe")
            }
            // --format was checked with the other arguments (checkOwnArguments); the configuration's format may still be one that cannot stream.
            let format = format ?? settings.format
            guard format.streams else {
                throw CommandFailure.usage(
                    "\(settings.format.rawValue) (the configuration's format) cannot stream to -o -: give --format wav, flac, ogg, mp3, opus or raw")
            }
            guard format.supportedEncodings.contains(settings.bits) else {
                throw bitsRefused(by: format, bits: settings.bits, configurationFile: configuration.path)
            }
            destination = .standardOutput(format)
        } else {
            destination = .file(outputPath!)
        }
        let input = readsStandardInput ? nil : inputPaths[0]
        let cores = settings.jobCount(processorCount: BatchRenderer.availableCores)
        let options = try renderOptions(settings, configuration: configuration)
        try PipeRender(input: input, destination: destination, quiet: quiet, json: json)
            .run(
                settings: settings, soundFonts: soundFonts, options: options, cores: cores,
                songSettings: folderSettings(settings, soundFonts: soundFonts, options: options, configuration: configuration))
    }

    /// What every render gets: the settings, with the options of changing the music, and what the
    /// files' tags say of smfplay and how they read the songs' texts.
    private func renderOptions(_ settings: RenderSettings, configuration: Configuration) throws -> RenderOptions {
        var options = settings.renderOptions()
        if normalizePeak {
            options.normalization = .peak
        } else if normalize {
            options.normalization = .loudness(LoudnessOptions.target(settings))
        }
        options.stems = stems
        // Where the report shows it: see RenderOptions.measuresTruePeak.
        options.measuresTruePeak = json || report != nil
        options.performance = performance.performance
        options.loops = performance.loopSettings(configured: settings, mustEnd: true)
        options.tags = AudioFileTags(software: "smfplay \(SMFPlay.version)")
        options.textEncoding = text.encoding(configuration: configuration)
        guard options.loops.passes != nil else {
            throw CommandFailure(
                "loops = \"inf\" in \(configuration.path?.text ?? "the configuration") would never end a render: give --loops with a number")
        }
        return options
    }

    /// Each song's settings from the `.smfplay.toml` files above it, for the batch to ask.
    private func folderSettings(
        _ settings: RenderSettings, soundFonts: SoundFontStack, options: RenderOptions, configuration: Configuration
    ) -> BatchRenderer.SongSettingsSource {
        let folders = FolderSettingsForSongs(
            command: SongSettings(
                soundFonts: soundFonts, synthesizer: settings.synthesizerSettings, performance: options.performance, loops: options.loops,
                textEncoding: options.textEncoding),
            commandLine: sound.folderKeys.union(performance.folderKeys).union(text.folderKeys), configuration: configuration)
        return folders.forRendering
    }

    /// `--shard`: as given, or from the scheduler's environment for `auto` (a usage error without one).
    private func resolvedShard() throws -> Shard? {
        switch shard {
        case nil: return nil
        case .given(let shard): return shard
        case .automatic:
            do {
                return try Shard.fromEnvironment(ProcessInfo.processInfo.environment)
            } catch {
                throw CommandFailure.usage(error.description)
            }
        }
    }

    /// `--write-manifest`: the MIDI files under the inputs, listed for `--manifest`.
    private static func writeManifest(of inputs: [FilePath], to path: FilePath) throws {
        let collected = RenderInputs(inputs: inputs, manifest: nil)
        collected.problems.forEach { printError($0.description) }
        let left: [FilePath]
        do {
            left = try InputManifest.write(collected.items.map(\.input), to: path)
        } catch {
            throw CommandFailure(error.description)
        }
        for file in left { printError("\(file.text): left out of the manifest: its name has a line break or ends in a carriage return") }
        let count = collected.items.count - left.count
        print("\(path.text): \(count) file\(count == 1 ? "" : "s")")
        if !collected.problems.isEmpty || !left.isEmpty { throw CommandFailure.alreadyReported }
    }

    /// A report's error for a song not tried: the disk was full.
    static let notStartedForFullDisk = "not rendered: the disk was full"

    /// What is said of a rendered song: where it went, its length, how far the limiter turned it down.
    static func line(output: String, _ result: RenderResult) -> String {
        let limited = result.limiterReductionDecibels > 0 ? String(format: ", limited by %.1f dB", result.limiterReductionDecibels) : ""
        return "\(output) (\(formatDuration(result.audioSeconds))\(limited))"
    }

    /// Command-line options over the configuration (`checkArguments()` has checked their ranges).
    private func apply(to settings: inout RenderSettings, configurationFile: FilePath?) throws {
        if let sampleRate { settings.sampleRate = sampleRate }
        if let tail { settings.tail = tail }
        loudness.apply(to: &settings)
        if let jobs { settings.jobs = jobs }
        if let bits { settings.bits = bits }
        if let quality { settings.quality = EncodingQuality(quality) }
        if let format, format.writesFiles {
            settings.format = format
        } else if inputs.count == 1, let outputPath, let fileFormat = AudioFileFormat(path: outputPath) {
            settings.format = fileFormat
        }
        // Before the synthesizer is made at it: Opus and MP3 take a few rates only.
        let outputFormat = streams ? format ?? settings.format : settings.format
        if let sampleRate {
            // The command line's format was checked with the arguments; the configuration's is checked here.
            if let problem = Self.sampleRateProblem(sampleRate, format: outputFormat) { throw CommandFailure.usage(problem) }
        } else {
            settings.sampleRate = outputFormat.supportedSampleRates.rate(inPlaceOf: settings.sampleRate)
        }
        sound.apply(to: &settings)
        // A stream's format is checked against the bits on its own (see renderThroughPipe).
        guard streams || settings.format.supportedEncodings.contains(settings.bits) else {
            throw bitsRefused(by: settings.format, bits: settings.bits, configurationFile: configurationFile)
        }
    }

    /// A format that cannot store the samples asked for, from the command line (a usage error) or
    /// from the configuration's `bits` (the file named: the command line is not wrong).
    private func bitsRefused(by format: AudioFileFormat, bits: SampleEncoding, configurationFile: FilePath?) -> CommandFailure {
        let problem = "\(format.rawValue) cannot store \(bits) samples"
        let allowed = format.supportedEncodings.map(\.bitsOption).joined(separator: " or ")
        guard self.bits == nil else { return .usage("--bits \(bits.bitsOption): \(problem); use --bits \(allowed)") }
        return CommandFailure(
            "bits = \"\(bits.bitsOption)\" in \(configurationFile?.text ?? "the configuration"): \(problem); give --bits \(allowed), or change it there"
        )
    }
}

extension Render: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [loudness, performance, sound, text, configurationOption] }
}

extension Render: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay render song.mid -o song.flac", does: "one file, in the extension's format"),
        (command: "smfplay render Library -o Rendered", does: "a folder, its tree mirrored"),
        (command: "smfplay render song.mid -o - | aplay", does: "stream to a program"),
    ]
}
