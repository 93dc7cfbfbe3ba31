import ArgumentParser
import AudioOutput
import Configuration
import Library
import Loudness
import MediaPlayerService
import Playback
import SMF
import Synthesis
import SystemPackage
import Thumbnails

/// The options of every command that plays through the sound server, and the player they make.
struct PlaybackOptions: ParsableArguments {
    @Flag(
        inversion: .prefixedNo,
        help:
            "After a seek, strike again the notes held across it (organ and string pads keep sounding). Default: the configuration's chase_notes, else off."
    )
    var chaseNotes: Bool?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Output latency in milliseconds (default: the configuration's latency_ms, else 50).", valueName: "ms"))
    var latency: Int?

    @Option(help: ArgumentHelp("PulseAudio server address (default: $PULSE_SERVER or the desktop's).", valueName: "address"))
    var server: String?

    @Flag(
        name: .shortAndLong,
        help:
            "Report output underruns as they happen, and their count when done; say when the audio thread cannot run in real time, and when a song plays on several cores (--cores)."
    )
    var verbose = false

    @Flag(help: "Hide the piano keyboard under the play view.")
    var noKeyboard = false

    @Flag(
        help:
            "Do not offer the player to the desktop's media keys, sound applet, playerctl and KDE Connect (MPRIS on the D-Bus session bus). Default: the configuration's mpris, else on."
    )
    var noMpris = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Synthesizers a song plays on, each on a core: auto (split across up to 4 once one cannot keep up) or a number (1 never splits). Default: the configuration's cores, else auto.",
            valueName: "auto|n"), transform: CoreCount.init(parsing:))
    var cores: CoreCount?

    @OptionGroup var loudness: LoudnessOptions

    @OptionGroup var performance: PerformanceOptions

    @OptionGroup var text: TextEncodingOption

    @OptionGroup var sound: SoundOptions

    @OptionGroup var configurationOption: ConfigurationOption

    func checkOwnArguments() throws {
        if let latency, !AudioSettings.latencyRange.contains(latency) { throw ValidationError("--latency must be from 5 to 2000 ms, not \(latency)") }
    }

    /// How the play view reads a song's lyrics.
    func textDecoding(configuration: Configuration) -> (MIDIFile) -> TextDecoding {
        { [text] file in text.decoding(for: file, configuration: configuration) }
    }

    /// The media keys (an MPRIS service on the session bus), unless `--no-mpris` or the
    /// configuration's `mpris = false` turn them off. Without a session bus (ssh, CI) they are off
    /// and the music plays as ever; `--verbose` says why in one line.
    func makeMediaKeys(configuration: Configuration, onProblem: (String) -> Void) -> MediaKeys? {
        guard !noMpris, configuration.audio.mpris else { return nil }
        do {
            return MediaKeys(
                service: try MediaPlayerService(), thumbnails: ThumbnailCache(cacheHome: XDGDirectories.current().cacheHome),
                textDecoding: textDecoding(configuration: configuration))
        } catch {
            if verbose { onProblem(error.description) }
            return nil
        }
    }

    /// How many synthesizers a song plays on: `--cores`, else the configuration's.
    func songSplit(configured: Int?) -> SongSplit {
        switch cores {
        case .count(let count): return .always(cores: count)
        case .automatic: return .automatic
        case nil: return configured.map { .always(cores: $0) } ?? .automatic
        }
    }

    /// Each song's settings from the `.smfplay.toml` files above it, for the player to ask as it
    /// prepares the song (its text encoding stays the command's: see `Player`).
    private func folderSettings(_ settings: RenderSettings, soundFonts: SoundFontStack, configuration: Configuration) -> Player.SongSettingsSource {
        let folders = FolderSettingsForSongs(
            command: SongSettings(
                soundFonts: soundFonts, synthesizer: settings.synthesizerSettings, performance: performance.performance,
                loops: performance.loopSettings(configured: settings), textEncoding: text.encoding(configuration: configuration)),
            commandLine: sound.folderKeys.union(performance.folderKeys).union(text.folderKeys), configuration: configuration)
        return { path in Result { () throws(SongSettingsProblem) in try folders.settings(forSongAt: path, for: .play) } }
    }

    /// Every song at the loudness target (`--loudness track`), or every folder (`folder`), their
    /// loudness kept in the library index; nil for `off`. An index that cannot be opened is said
    /// once, and songs play as they sound.
    private func playbackLoudness(_ settings: RenderSettings) -> PlaybackLoudness? {
        guard settings.loudnessMode != .off else { return nil }
        return PlaybackLoudness(
            target: LoudnessOptions.target(settings),
            openMemory: { warn in
                let memory = IndexedLoudnessMemory(warn: warn)
                return memory.open() ? memory : nil
            },
            folderSongs: settings.loudnessMode == .folder ? FolderListing.midiFiles(in:) : nil)
    }

    /// Connects to the sound server and loads the SoundFont (or takes `preload`'s, see
    /// `CommandLinePrescan`), reading `readingAhead` meanwhile (see `Player.init`).
    func makePlayer(
        configuration: Configuration, readingAhead: FilePath? = nil, preload: SynthesizerPreload? = nil,
        onProblem: @escaping (String) -> Void
    ) throws(CommandFailure) -> Player {
        var settings = configuration.render
        var audio = configuration.audio
        if let latency { audio.latencyMilliseconds = latency }
        if let chaseNotes { audio.chaseNotes = chaseNotes }
        if let server { audio.server = server }
        sound.apply(to: &settings)
        loudness.apply(to: &settings)
        let soundFonts = try sound.soundFontStack(settings: settings, configurationFile: configuration.path)
        let synthesizerSettings = settings.synthesizerSettings
        let player: Player
        do {
            player = try Player(
                chaseNotes: audio.chaseNotes, tailLimitSeconds: settings.tail, sampleRate: Double(settings.sampleRate),
                limitsPeaks: settings.limiter, loops: performance.loopSettings(configured: settings), split: songSplit(configured: audio.cores),
                songBanks: settings.makeSongBankLookup(),
                songSettings: folderSettings(settings, soundFonts: soundFonts, configuration: configuration),
                readingAhead: readingAhead, loudness: playbackLoudness(settings), reconnectTimeout: .seconds(audio.reconnectTimeoutSeconds),
                makeSink: { render in
                    PulseAudioPlaybackSink(
                        try PulseAudioSink(
                            server: audio.server, streamName: "smfplay", sampleRate: settings.sampleRate,
                            latency: .milliseconds(audio.latencyMilliseconds), render: render))
                },
                makeSynthesizer: { try Synthesizer(settings: synthesizerSettings, soundFonts: soundFonts, preload: preload) },
                onProblem: onProblem)
        } catch let error as PulseAudioError {
            throw CommandFailure(error.description, status: .noSoundServer)
        } catch {
            throw CommandFailure("\(error)")
        }
        player.performance = performance.performance
        if verbose, let reason = player.outputNormalPriorityReason {
            onProblem(
                "the audio thread runs at normal priority, so a busy machine can make the output run dry (real-time scheduling: \(reason); see `ulimit -r`)"
            )
        }
        return player
    }
}

extension PlaybackOptions: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [loudness, performance, text, sound, configurationOption] }
}
