import AudioOutput
import Files
import Loudness
import SMF
import Synthesis
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Renders songs to audio files.
///
/// Each song gets a synthesizer of its own, so that its audio never depends on
/// what was rendered before it: a reset FluidSynth still carries traces of the
/// last song (measured: up to −48 dBFS without effects, −35 dBFS with chorus).
/// The first song uses the synthesizer given; it stays alive so that FluidSynth's
/// sample cache keeps the SoundFont loaded, and a new synthesizer costs a
/// fraction of the first.
public final class SongRenderer: @unchecked Sendable {
    // @unchecked: confined. One thread renders with it at a time (a batch worker, or the caller);
    // the part threads of a split song call only `newSynthesizer()`, which reads what never changes.
    /// The synthesizer given, which holds the SoundFont's samples in FluidSynth's cache.
    public let synthesizer: Synthesizer
    private var isSynthesizerUsed = false
    private static let blockFrames = 4096
    private let block: UnsafeMutableBufferPointer<Float>
    /// The master output's limiter, made at the first render that wants one.
    private lazy var sampleLimiter = PeakLimiter(sampleRate: Double(sampleRate))
    /// The limiter of renders normalized to a loudness, which keeps true peaks under its ceiling.
    private lazy var truePeakLimiter = PeakLimiter(sampleRate: Double(sampleRate), ceiling: PeakLimiter.truePeakCeiling, truePeaks: true)

    public init(synthesizer: Synthesizer) {
        self.synthesizer = synthesizer
        block = .allocate(capacity: Self.blockFrames * 2)
    }

    /// A synthesizer that has never played, with the song's own settings and SoundFonts (its
    /// folder's) when it has them and its own bank on top when it has one: the one given, then
    /// new ones like it.
    private func freshSynthesizer(songBank: SongSoundBank?, sound: SongSettings?) throws(RenderError) -> Synthesizer {
        let (settings, soundFonts) = self.sound(songBank: songBank, sound: sound)
        guard isSynthesizerUsed || settings != synthesizer.configuration || soundFonts != synthesizer.soundFonts else {
            isSynthesizerUsed = true
            return synthesizer
        }
        return try newSynthesizer(settings: settings, soundFonts: soundFonts)
    }

    /// The settings and SoundFonts a song's synthesizer gets: its own (its folder's) when it has
    /// them, else the renderer's; its own bank on top.
    private func sound(songBank: SongSoundBank?, sound: SongSettings?) -> (SynthesizerSettings, SoundFontStack) {
        (sound?.synthesizer ?? synthesizer.configuration, (sound?.soundFonts ?? synthesizer.soundFonts).with(songBank: songBank))
    }

    /// A new synthesizer with `settings` and `soundFonts`. FluidSynth's sample cache shares the
    /// SoundFonts' samples among all of them: each costs its presets and voices, not another
    /// SoundFont (a song's own bank is read once per song, the same one again from the cache).
    private func newSynthesizer(settings: SynthesizerSettings, soundFonts: SoundFontStack) throws(RenderError) -> Synthesizer {
        do {
            return try Synthesizer(settings: settings, soundFonts: soundFonts)
        } catch {
            throw .synthesizer(error)
        }
    }

    deinit {
        block.deallocate()
    }

    private var sampleRate: Int { Int(synthesizer.configuration.sampleRate) }

    /// Renders a song into `output`, which appears only once complete.
    /// `progress` receives the fraction of the song rendered so far.
    /// A cancellation stops the render at the next block and removes what was written.
    /// With `cores` above 1, the song's keys are shared out among that many synthesizers,
    /// which render side by side (``SplitRendering``); the sum sounds as one synthesizer would.
    /// `songBank`, the song's own sound bank, plays on top of the SoundFonts for this song;
    /// `sound`, the song's own settings (its folder's), gives its synthesizer's settings and
    /// SoundFonts. `options` are the song's already (``RenderOptions/with(_:)``: its transposition,
    /// loops and text encoding), as its tags were made from them.
    ///
    /// What is written is measured (EBU R128, on a thread of its own). `loudness` is where songs'
    /// loudness is kept, with the MD5 of this song's file: a render normalized to a loudness then
    /// needs one pass when the song was measured before with this sound, and two otherwise (the
    /// first only measures); any render that the limiter left alone keeps what it measured.
    /// `folderLoudness`, its folder's loudness at a synthesizer gain of 1 (`--loudness folder`),
    /// sets the normalizing gain in place of the song's own (one pass), and the album gain of its
    /// ReplayGain tags.
    public func render(
        _ song: Song, to output: FilePath, options: RenderOptions, cores: Int = 1, songBank: SongSoundBank? = nil,
        sound: SongSettings? = nil, loudness: (memory: any LoudnessMemory, content: String)? = nil, folderLoudness: Loudness? = nil,
        cancellation: Cancellation? = nil, progress: (Double) -> Void = { _ in }
    ) throws(RenderError) -> RenderResult {
        // Without its meter, a loudness render would write the song at its own level, unsaid.
        if case .loudness = options.normalization, let reason = LoudnessMeter.loadLibrary() { throw .loudnessUnmeasurable(reason: reason) }
        var sequencers = try sequencer(for: song, options: options, cores: cores, songBank: songBank, sound: sound)
        let synthesizer = sequencers.whole.synthesizer
        let key = loudness.map {
            SongSoundKey(
                content: $0.content, settings: synthesizer.configuration, soundFonts: synthesizer.soundFonts, performance: options.performance,
                loops: options.loops)
        }
        let gainDecibels = Loudness.decibels(ofGain: synthesizer.configuration.gain)
        let isCancelled = { cancellation?.isCancelled ?? false }
        do {
            if options.normalization == .peak {
                return try renderNormalizingPeak(sequencers, to: output, options: options, isCancelled: isCancelled, progress: progress)
            }
            var gain: Float = 1
            // The part of the progress the written pass shows: all of it, or its second half.
            var writtenProgressStart = 0.0
            if case .loudness(let target) = options.normalization {
                var unityLoudness = folderLoudness ?? key.flatMap { loudness?.memory.loudness(of: $0) }
                if unityLoudness == nil {
                    // The first pass measures, writing nothing; the second, with a fresh synthesizer, writes.
                    let measuring = LoudnessMeterThread(sampleRate: sampleRate, measuresTruePeak: false)
                    _ = try synthesize(
                        sequencers, into: DiscardingSampleWriter(), limiter: nil, gain: 1, meter: measuring, options: options,
                        isCancelled: isCancelled, progress: { progress($0 / 2) })
                    if isCancelled() { throw RenderError.cancelled(output: output) }
                    unityLoudness = measuring?.finish()?.adjusted(byDecibels: -gainDecibels)
                    if let key, let unityLoudness { loudness?.memory.remember(unityLoudness, of: key) }
                    sequencers = try sequencer(for: song, options: options, cores: cores, songBank: songBank, sound: sound)
                    writtenProgressStart = 0.5
                }
                gain = target.gain(forUnityLoudness: unityLoudness)
            }
            let limiter = options.normalization == .off ? (options.limitsPeaks ? sampleLimiter : nil) : truePeakLimiter
            let meter = LoudnessMeterThread(sampleRate: sampleRate, measuresTruePeak: options.measuresTruePeak || options.normalization != .off)
            let writer = try AudioFileWriter(
                path: output, format: options.format, encoding: options.encoding, sampleRate: sampleRate, channels: 2, tags: options.tags,
                quality: options.quality, mostFrames: mostFrames(of: sequencers, options: options))
            let rendered = try synthesize(
                sequencers, into: writer, limiter: limiter, gain: gain, meter: meter, options: options, isCancelled: isCancelled,
                progress: { progress(writtenProgressStart + $0 * (1 - writtenProgressStart)) })
            if isCancelled() { throw RenderError.cancelled(output: output) }
            let written = meter?.finish()
            var replayGain = written.map { ReplayGain(written: $0, samplePeak: writer.peak) }
            if let folderLoudness, options.normalization != .off {
                let writtenFolder = folderLoudness.adjusted(byDecibels: gainDecibels + Loudness.decibels(ofGain: Double(gain)))
                replayGain?.albumGain = ReplayGain.referenceLUFS - writtenFolder.integratedLUFS
            }
            try writer.finish(replayGain: replayGain)
            let reduction = limiter?.largestReductionDecibels ?? 0
            if options.normalization == .off, reduction == 0, let key, let written {
                loudness?.memory.remember(written.adjusted(byDecibels: -gainDecibels), of: key)
            }
            return result(of: rendered, peak: writer.peak, gain: gain, limiterReduction: reduction, loudness: written, options: options)
        } catch let error as AudioFileError {
            throw .output(error)
        } catch let error as RenderError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// Renders the song as floats beside the output, then copies them into it scaled so that the
    /// highest sample is at −1 dBFS: the float render keeps every sample exact, so one synthesis
    /// does.
    private func renderNormalizingPeak(
        _ sequencers: SongSequencers, to output: FilePath, options: RenderOptions, isCancelled: () -> Bool,
        progress: (Double) -> Void
    ) throws -> RenderResult {
        let floatPath = Self.intermediatePath(for: output)
        defer { _ = floatPath.withPlatformString { unlink($0) } }
        let mostFrames = mostFrames(of: sequencers, options: options)
        let floats = try AudioFileWriter(
            path: floatPath, format: .wav, encoding: .float32, sampleRate: sampleRate, channels: 2, mostFrames: mostFrames)
        let limiter = options.limitsPeaks ? sampleLimiter : nil
        let meter = LoudnessMeterThread(sampleRate: sampleRate, measuresTruePeak: options.measuresTruePeak)
        let rendered = try synthesize(
            sequencers, into: floats, limiter: limiter, gain: 1, meter: meter, options: options, isCancelled: isCancelled, progress: progress)
        if isCancelled() { throw RenderError.cancelled(output: output) }
        try floats.finish()
        let gain = AudioFileWriter.normalizingGain(peak: floats.peak)
        let writer = try AudioFileWriter(
            path: output, format: options.format, encoding: options.encoding, sampleRate: sampleRate, channels: 2, tags: options.tags,
            quality: options.quality, mostFrames: mostFrames)
        try writer.copy(from: try AudioFileReader(path: floatPath), gain: gain)
        let written = meter?.finish()?.adjusted(byDecibels: Loudness.decibels(ofGain: Double(gain)))
        try writer.finish(replayGain: written.map { ReplayGain(written: $0, samplePeak: floats.peak * gain) })
        return result(
            of: rendered, peak: floats.peak, gain: gain, limiterReduction: limiter?.largestReductionDecibels ?? 0, loudness: written,
            options: options)
    }

    /// Measures a song's loudness as a render with these options would sound at a synthesizer gain
    /// of 1 (`index --loudness`), and keeps it in `loudness`'s memory under the song's file
    /// (`song`, whose bytes' MD5 is `loudness.content`). Nothing is written and nothing limited;
    /// loudness alone is measured, not true peak (a third of the meter's cost). What the memory
    /// knows of the song with this sound already, having done nothing, when it knows it.
    /// `songBank`, `sound` and `cores` as for a render.
    public func measure(
        _ song: Song, at path: FilePath, options: RenderOptions, cores: Int = 1, songBank: SongSoundBank? = nil, sound: SongSettings? = nil,
        loudness: (memory: any LoudnessMemory, content: String), cancellation: Cancellation? = nil, progress: (Double) -> Void = { _ in }
    ) throws(RenderError) -> SongMeasurement {
        let (settings, soundFonts) = self.sound(songBank: songBank, sound: sound)
        let key = SongSoundKey(
            content: loudness.content, settings: settings, soundFonts: soundFonts, performance: options.performance, loops: options.loops)
        if let known = loudness.memory.loudness(of: key) { return .known(known) }
        // Without its meter, the song would be measured as silence.
        if let reason = LoudnessMeter.loadLibrary() { throw .loudnessUnmeasurable(reason: reason) }
        let sequencers = try sequencer(for: song, options: options, cores: cores, songBank: songBank, sound: sound)
        let isCancelled = { cancellation?.isCancelled ?? false }
        let meter = LoudnessMeterThread(sampleRate: sampleRate, measuresTruePeak: false)
        let rendered = try synthesize(
            sequencers, into: DiscardingSampleWriter(), limiter: nil, gain: 1, meter: meter, options: options, isCancelled: isCancelled,
            progress: progress)
        if isCancelled() { throw .cancelledMeasuring(song: path) }
        let unityLoudness = meter?.finish()?.adjusted(byDecibels: -Loudness.decibels(ofGain: settings.gain))
        if let unityLoudness { loudness.memory.remember(unityLoudness, of: key) }
        return .measured(result(of: rendered, peak: 0, gain: 1, limiterReduction: 0, loudness: unityLoudness, options: options))
    }

    /// Renders a song into a stream (standard output) as it goes: each block leaves before the
    /// next is rendered. No normalization, which needs the whole render first. A cancellation
    /// stops the render at the next block; the stream then ends where it was. `songBank`, `sound`
    /// and `options` as for a file.
    public func render(
        _ song: Song, streamingTo writer: AudioStreamWriter, options: RenderOptions, cores: Int = 1, songBank: SongSoundBank? = nil,
        sound: SongSettings? = nil, cancellation: Cancellation? = nil, progress: (Double) -> Void = { _ in }
    ) throws(RenderError) -> RenderResult {
        precondition(options.normalization == .off, "a stream cannot be normalized: it leaves before its level is known")
        let sequencer = try sequencer(for: song, options: options, cores: cores, songBank: songBank, sound: sound)
        let isCancelled = { cancellation?.isCancelled ?? false }
        let limiter = options.limitsPeaks ? sampleLimiter : nil
        let rendered = try synthesize(
            sequencer, into: writer, limiter: limiter, gain: 1, meter: nil, options: options, isCancelled: isCancelled, progress: progress)
        if !isCancelled() {
            do throws(AudioFileError) { try writer.finish() } catch { throw .output(error) }
        }
        if isCancelled() { throw .cancelledStream(name: writer.name) }
        return result(
            of: rendered, peak: writer.peak, gain: 1, limiterReduction: limiter?.largestReductionDecibels ?? 0, loudness: nil, options: options)
    }

    /// The song's sequencer, and how its keys are shared out when it is split across `cores`
    /// synthesizers. The whole song's synthesizer measures what its notes cost
    /// (``Sequencer/noteLoads(probe:)``) before it plays: no synthesizer is made for that alone.
    private func sequencer(
        for song: Song, options: RenderOptions, cores: Int, songBank: SongSoundBank?, sound: SongSettings?
    ) throws(RenderError) -> SongSequencers {
        let whole = Sequencer(song: song, synthesizer: try freshSynthesizer(songBank: songBank, sound: sound), loops: options.loops)
        whole.synthesizer.performance.current = options.performance
        guard cores > 1 else { return SongSequencers(whole: whole, split: nil) }
        let split = NoteSplit(loads: whole.noteLoads(probe: whole.synthesizer), count: cores)
        return SongSequencers(whole: whole, split: split.partCount > 1 ? split : nil)
    }

    private func result(
        of rendered: RenderedSong, peak: Float, gain: Float, limiterReduction: Double, loudness: Loudness?, options: RenderOptions
    ) -> RenderResult {
        var substitutions: [PresetSubstitution] = []
        for part in rendered.sequencers {
            substitutions += part.synthesizer.substitutions.filter { !substitutions.contains($0) }
        }
        let whole = rendered.whole
        let loopProblem = options.loops.isAsWritten ? nil : whole.loopFinding.problemWhenLooping
        return RenderResult(
            songSeconds: whole.song.duration, audioSeconds: Double(rendered.frames) / Double(sampleRate), peak: peak,
            normalizationGain: gain, limiterReductionDecibels: limiterReduction, loudness: loudness,
            substitutions: substitutions, loopProblem: loopProblem, songBankProblem: whole.synthesizer.songBankProblem,
            partCount: rendered.sequencers.count)
    }

    /// The most frames a render of `sequencers` writes: the song to its end (its loops and tempo
    /// as asked) and the longest tail; nil for a loop played for ever.
    private func mostFrames(of sequencers: SongSequencers, options: RenderOptions) -> Int? {
        sequencers.whole.framesToEnd.map { Int($0) + Int((options.tailLimit * Double(sampleRate)).rounded()) }
    }

    /// Renders the song, then its tail until the output is silent or the tail limit runs out,
    /// scaled by `gain`, through `limiter` when there is one, and heard by `meter`. A split song's
    /// parts other than the first are made on their own threads (``SplitRendering``).
    private func synthesize(
        _ sequencers: SongSequencers, into file: any AudioSampleWriter, limiter: PeakLimiter?, gain: Float, meter: LoudnessMeterThread?,
        options: RenderOptions, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws(RenderError) -> RenderedSong {
        var writer = LimitedWriter(writer: file, limiter: limiter, gain: gain, meter: meter)
        let total = Double(max(sequencers.whole.framesToEnd ?? 1, 1))
        let tailFrames = Int((options.tailLimit * Double(sampleRate)).rounded())
        let start = block.baseAddress!
        func write(_ next: (UnsafeMutablePointer<Float>) -> RenderBlock?) throws(RenderError) -> Int {
            var written = 0
            while !isCancelled(), let rendered = next(start) {
                let frames = rendered.frames
                if rendered.isTail {
                    let isSilent = !UnsafeBufferPointer(rebasing: block[..<(2 * frames)]).contains { abs($0) >= RenderOptions.silenceThreshold }
                    if isSilent { break }
                }
                do throws(AudioFileError) { try writer.write(start, frames: frames) } catch { throw .output(error) }
                written += frames
                if !rendered.isTail { progress(min(1, Double(written) / total)) }
            }
            return written
        }
        let whole = sequencers.whole
        var rendered: RenderedSong?
        if let split = sequencers.split {
            let first = Sequencer(partOf: whole, synthesizer: whole.synthesizer, part: 0, of: split)
            // The part threads make their parts from `whole`, reading only what never changes in
            // it (its events, loop and settings); `whole` itself is not rendered.
            nonisolated(unsafe) let whole = whole
            let rendering = SplitRendering(first: first, partCount: split.partCount, blockFrames: Self.blockFrames, tailFrames: tailFrames) {
                part throws(RenderError) in
                let synthesizer = try self.newSynthesizer(settings: whole.synthesizer.configuration, soundFonts: whole.synthesizer.soundFonts)
                synthesizer.performance.current = options.performance
                return Sequencer(partOf: whole, synthesizer: synthesizer, part: part, of: split)
            }
            if let written = try rendering.run(write) {
                rendered = RenderedSong(whole: whole, sequencers: rendering.madeParts, frames: written)
            }
        }
        if rendered == nil {
            var blocks = RenderBlocks(sequencer: whole, blockFrames: Self.blockFrames, tailFrames: tailFrames)
            rendered = RenderedSong(whole: whole, sequencers: [whole], frames: try write { blocks.render(into: $0) })
        }
        do throws(AudioFileError) { try writer.finish(scratch: start) } catch { throw .output(error) }
        progress(1)
        return rendered!
    }

    /// A hidden file beside the output, so that it lands on the same disk.
    private static func intermediatePath(for output: FilePath) -> FilePath {
        let name = output.lastComponent.map { $0.bytes.map { CChar(bitPattern: $0) } } ?? []
        let bytes = [CChar(UInt8(ascii: "."))] + name.prefix(200) + Array(".float-\(getpid()).wav".utf8CString)
        return output.containingFolder.appending(FilePath.Component(platformString: bytes) ?? "float.wav")
    }
}

/// A song's sequencer, and how its keys are shared out when it is split across synthesizers.
private struct SongSequencers {
    /// Plays the whole song, unless it is split; its synthesizer plays the first part when it is.
    let whole: Sequencer
    /// Nil when the song is not split.
    let split: NoteSplit?
}

/// What rendered a song, and how much.
private struct RenderedSong {
    let whole: Sequencer
    /// The sequencers that played: the whole song's, or every part's.
    let sequencers: [Sequencer]
    let frames: Int
}
