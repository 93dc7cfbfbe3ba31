import AudioOutput
import Files
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
    private var limiter: PeakLimiter?

    public init(synthesizer: Synthesizer) {
        self.synthesizer = synthesizer
        block = .allocate(capacity: Self.blockFrames * 2)
    }

    /// A synthesizer that has never played, with the song's own settings and SoundFonts (its
    /// folder's) when it has them and its own bank on top when it has one: the one given, then
    /// new ones like it.
    private func freshSynthesizer(songBank: SongSoundBank?, sound: SongSettings?) throws(RenderError) -> Synthesizer {
        let settings = sound?.synthesizer ?? synthesizer.configuration
        let soundFonts = (sound?.soundFonts ?? synthesizer.soundFonts).with(songBank: songBank)
        guard isSynthesizerUsed || settings != synthesizer.configuration || soundFonts != synthesizer.soundFonts else {
            isSynthesizerUsed = true
            return synthesizer
        }
        return try newSynthesizer(settings: settings, soundFonts: soundFonts)
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
    public func render(
        _ song: Song, to output: FilePath, options: RenderOptions, cores: Int = 1, songBank: SongSoundBank? = nil,
        sound: SongSettings? = nil, cancellation: Cancellation? = nil, progress: (Double) -> Void = { _ in }
    ) throws(RenderError) -> RenderResult {
        let sequencer = try sequencer(for: song, options: options, cores: cores, songBank: songBank, sound: sound)
        let isCancelled = { cancellation?.isCancelled ?? false }
        do {
            guard options.normalize else {
                let writer = try AudioFileWriter(
                    path: output, format: options.format, encoding: options.encoding, sampleRate: sampleRate, channels: 2, tags: options.tags)
                let rendered = try synthesize(sequencer, into: writer, options: options, isCancelled: isCancelled, progress: progress)
                if isCancelled() { throw RenderError.cancelled(output: output) }
                try writer.finish()
                return result(of: rendered, peak: writer.peak, gain: 1, options: options)
            }
            // The float render keeps every sample exact, so normalizing needs no second synthesis.
            let floatPath = Self.intermediatePath(for: output)
            defer { _ = floatPath.withPlatformString { unlink($0) } }
            let floats = try AudioFileWriter(path: floatPath, format: .wav, encoding: .float32, sampleRate: sampleRate, channels: 2)
            let rendered = try synthesize(sequencer, into: floats, options: options, isCancelled: isCancelled, progress: progress)
            if isCancelled() { throw RenderError.cancelled(output: output) }
            try floats.finish()
            let gain = AudioFileWriter.normalizingGain(peak: floats.peak)
            let writer = try AudioFileWriter(
                path: output, format: options.format, encoding: options.encoding, sampleRate: sampleRate, channels: 2, tags: options.tags)
            try writer.copy(from: try AudioFileReader(path: floatPath), gain: gain)
            try writer.finish()
            return result(of: rendered, peak: floats.peak, gain: gain, options: options)
        } catch let error as AudioFileError {
            throw .output(error)
        } catch let error as RenderError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// Renders a song into a stream (standard output) as it goes: each block leaves before the
    /// next is rendered. No normalization, which needs the whole render first. A cancellation
    /// stops the render at the next block; the stream then ends where it was. `songBank`, `sound`
    /// and `options` as for a file.
    public func render(
        _ song: Song, streamingTo writer: AudioStreamWriter, options: RenderOptions, cores: Int = 1, songBank: SongSoundBank? = nil,
        sound: SongSettings? = nil, cancellation: Cancellation? = nil, progress: (Double) -> Void = { _ in }
    ) throws(RenderError) -> RenderResult {
        precondition(!options.normalize, "a stream cannot be normalized: it leaves before its peak is known")
        let sequencer = try sequencer(for: song, options: options, cores: cores, songBank: songBank, sound: sound)
        let isCancelled = { cancellation?.isCancelled ?? false }
        let rendered = try synthesize(sequencer, into: writer, options: options, isCancelled: isCancelled, progress: progress)
        if !isCancelled() {
            do throws(AudioFileError) { try writer.finish() } catch { throw .output(error) }
        }
        if isCancelled() { throw .cancelledStream(name: writer.name) }
        return result(of: rendered, peak: writer.peak, gain: 1, options: options)
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

    private func result(of rendered: RenderedSong, peak: Float, gain: Float, options: RenderOptions) -> RenderResult {
        var substitutions: [PresetSubstitution] = []
        for part in rendered.sequencers {
            substitutions += part.synthesizer.substitutions.filter { !substitutions.contains($0) }
        }
        let whole = rendered.whole
        let loopProblem = options.loops == .asWritten ? nil : whole.loopFinding.problemWhenLooping
        return RenderResult(
            songSeconds: whole.song.duration, audioSeconds: Double(rendered.frames) / Double(sampleRate), peak: peak,
            normalizationGain: gain, limiterReductionDecibels: options.limitsPeaks ? limiter?.largestReductionDecibels ?? 0 : 0,
            substitutions: substitutions, loopProblem: loopProblem, songBankProblem: whole.synthesizer.songBankProblem,
            partCount: rendered.sequencers.count)
    }

    /// Renders the song, then its tail until the output is silent or the tail limit runs out,
    /// through the limiter unless the options turn it off. A split song's parts other than the
    /// first are made on their own threads (``SplitRendering``).
    private func synthesize(
        _ sequencers: SongSequencers, into file: any AudioSampleWriter, options: RenderOptions, isCancelled: () -> Bool,
        progress: (Double) -> Void
    ) throws(RenderError) -> RenderedSong {
        if options.limitsPeaks, limiter == nil { limiter = PeakLimiter(sampleRate: Double(sampleRate)) }
        var writer = LimitedWriter(writer: file, limiter: options.limitsPeaks ? limiter : nil)
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
