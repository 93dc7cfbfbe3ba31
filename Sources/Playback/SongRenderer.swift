#if canImport(Glibc)
import Glibc
#endif
import AudioOutput
import SMF
import Synthesis
import Files
import SystemPackage

/// Renders songs to audio files.
///
/// Each song gets a synthesizer of its own, so that its audio never depends on
/// what was rendered before it: a reset FluidSynth still carries traces of the
/// last song (measured: up to −48 dBFS without effects, −35 dBFS with chorus).
/// The first song uses the synthesizer given; it stays alive so that FluidSynth's
/// sample cache keeps the SoundFont loaded, and a new synthesizer costs a
/// fraction of the first.
public final class SongRenderer {
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

    /// A synthesizer that has never played: the one given, then new ones like it.
    private func freshSynthesizer() throws(RenderError) -> Synthesizer {
        guard isSynthesizerUsed else {
            isSynthesizerUsed = true
            return synthesizer
        }
        return try newSynthesizer()
    }

    /// A synthesizer like the one given, without effects: for measuring what a song's notes cost.
    private func probeSynthesizer() throws(RenderError) -> Synthesizer {
        var settings = synthesizer.configuration
        settings.reverb = nil
        settings.chorus = nil
        do {
            return try Synthesizer(settings: settings, soundFonts: synthesizer.soundFonts)
        } catch {
            throw .synthesizer(error)
        }
    }

    /// A new synthesizer like the one given. FluidSynth's sample cache shares the SoundFont's
    /// samples among all of them: each costs its presets and voices, not another SoundFont.
    private func newSynthesizer() throws(RenderError) -> Synthesizer {
        do {
            return try Synthesizer(settings: synthesizer.configuration, soundFonts: synthesizer.soundFonts)
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
    public func render(_ song: Song, to output: FilePath, options: RenderOptions, cores: Int = 1, cancellation: Cancellation? = nil,
                       progress: (Double) -> Void = { _ in }) throws(RenderError) -> RenderResult {
        let sequencer = try sequencer(for: song, options: options, cores: cores)
        let isCancelled = { cancellation?.isCancelled ?? false }
        do {
            guard options.normalize else {
                let writer = try AudioFileWriter(path: output, format: options.format, encoding: options.encoding, sampleRate: sampleRate, channels: 2)
                let frames = try synthesize(sequencer, into: writer, options: options, isCancelled: isCancelled, progress: progress)
                if isCancelled() { throw RenderError.cancelled(output: output) }
                try writer.finish()
                return result(of: sequencer, frames: frames, peak: writer.peak, gain: 1, options: options)
            }
            // The float render keeps every sample exact, so normalizing needs no second synthesis.
            let floatPath = Self.intermediatePath(for: output)
            defer { _ = floatPath.withPlatformString { unlink($0) } }
            let floats = try AudioFileWriter(path: floatPath, format: .wav, encoding: .float32, sampleRate: sampleRate, channels: 2)
            let frames = try synthesize(sequencer, into: floats, options: options, isCancelled: isCancelled, progress: progress)
            if isCancelled() { throw RenderError.cancelled(output: output) }
            try floats.finish()
            let gain = AudioFileWriter.normalizingGain(peak: floats.peak)
            let writer = try AudioFileWriter(path: output, format: options.format, encoding: options.encoding, sampleRate: sampleRate, channels: 2)
            try writer.copy(from: try AudioFileReader(path: floatPath), gain: gain)
            try writer.finish()
            return result(of: sequencer, frames: frames, peak: floats.peak, gain: gain, options: options)
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
    /// stops the render at the next block; the stream then ends where it was.
    public func render(_ song: Song, streamingTo writer: AudioStreamWriter, options: RenderOptions, cores: Int = 1, cancellation: Cancellation? = nil,
                       progress: (Double) -> Void = { _ in }) throws(RenderError) -> RenderResult {
        precondition(!options.normalize, "a stream cannot be normalized: it leaves before its peak is known")
        let sequencer = try sequencer(for: song, options: options, cores: cores)
        let isCancelled = { cancellation?.isCancelled ?? false }
        let frames: Int
        do throws(AudioFileError) {
            frames = try synthesize(sequencer, into: writer, options: options, isCancelled: isCancelled, progress: progress)
            if !isCancelled() { try writer.finish() }
        } catch {
            throw .output(error)
        }
        if isCancelled() { throw .cancelledStream(name: writer.name) }
        return result(of: sequencer, frames: frames, peak: writer.peak, gain: 1, options: options)
    }

    /// The song's sequencers: one, or one per part when the song is split across `cores`
    /// synthesizers (the first plays the whole song should the split fail to start).
    private func sequencer(for song: Song, options: RenderOptions, cores: Int) throws(RenderError) -> SongSequencers {
        let whole = Sequencer(song: song, synthesizer: try freshSynthesizer(), loops: options.loops)
        whole.synthesizer.performance.current = options.performance
        guard cores > 1 else { return SongSequencers(whole: whole, parts: []) }
        let split = NoteSplit(loads: whole.noteLoads(probe: try probeSynthesizer()), count: cores)
        guard split.partCount > 1 else { return SongSequencers(whole: whole, parts: []) }
        var parts: [Sequencer] = []
        for part in 0..<split.partCount {
            let synthesizer = part == 0 ? whole.synthesizer : try newSynthesizer()
            synthesizer.performance.current = options.performance
            parts.append(Sequencer(partOf: whole, synthesizer: synthesizer, part: part, of: split))
        }
        return SongSequencers(whole: whole, parts: parts)
    }

    private func result(of sequencers: SongSequencers, frames: Int, peak: Float, gain: Float, options: RenderOptions) -> RenderResult {
        var substitutions: [PresetSubstitution] = []
        for part in sequencers.parts.isEmpty ? [sequencers.whole] : sequencers.parts {
            substitutions += part.synthesizer.substitutions.filter { !substitutions.contains($0) }
        }
        let loopProblem = options.loops == .asWritten ? nil : sequencers.whole.loopFinding.problem
        return RenderResult(songSeconds: sequencers.whole.song.duration, audioSeconds: Double(frames) / Double(sampleRate), peak: peak,
                            normalizationGain: gain, limiterReductionDecibels: options.limitsPeaks ? limiter?.largestReductionDecibels ?? 0 : 0,
                            substitutions: substitutions, loopProblem: loopProblem)
    }

    /// Renders the song, then its tail until the output is silent or the tail limit runs out,
    /// through the limiter unless the options turn it off. Returns the number of frames written.
    private func synthesize(_ sequencers: SongSequencers, into file: any AudioSampleWriter, options: RenderOptions, isCancelled: () -> Bool,
                            progress: (Double) -> Void) throws(AudioFileError) -> Int {
        if options.limitsPeaks, limiter == nil { limiter = PeakLimiter(sampleRate: Double(sampleRate)) }
        var writer = LimitedWriter(writer: file, limiter: options.limitsPeaks ? limiter : nil)
        let total = Double(max(sequencers.whole.framesToEnd ?? 1, 1))
        let tailFrames = Int((options.tailLimit * Double(sampleRate)).rounded())
        let start = block.baseAddress!
        func write(_ next: (UnsafeMutablePointer<Float>) -> RenderBlock?) throws(AudioFileError) -> Int {
            var written = 0
            while !isCancelled(), let rendered = next(start) {
                let frames = rendered.frames
                if rendered.isTail {
                    let isSilent = !UnsafeBufferPointer(rebasing: block[..<(2 * frames)]).contains { abs($0) >= RenderOptions.silenceThreshold }
                    if isSilent { break }
                }
                try writer.write(start, frames: frames)
                written += frames
                if !rendered.isTail { progress(min(1, Double(written) / total)) }
            }
            return written
        }
        var written: Int
        if !sequencers.parts.isEmpty,
           let splitWritten = try SplitRendering(parts: sequencers.parts, blockFrames: Self.blockFrames, tailFrames: tailFrames).run(write) {
            written = splitWritten
        } else {
            var blocks = RenderBlocks(sequencer: sequencers.whole, blockFrames: Self.blockFrames, tailFrames: tailFrames)
            written = try write { blocks.render(into: $0) }
        }
        try writer.finish(scratch: start)
        progress(1)
        return written
    }

    /// A hidden file beside the output, so that it lands on the same disk.
    private static func intermediatePath(for output: FilePath) -> FilePath {
        let name = output.lastComponent.map { $0.bytes.map { CChar(bitPattern: $0) } } ?? []
        let bytes = [CChar(UInt8(ascii: "."))] + name.prefix(200) + Array(".float-\(getpid()).wav".utf8CString)
        return output.containingFolder.appending(FilePath.Component(platformString: bytes) ?? "float.wav")
    }
}

/// A song's sequencer, and the sequencers of its parts when it is split across synthesizers.
private struct SongSequencers {
    /// Plays the whole song, unless there are parts.
    let whole: Sequencer
    /// Empty when the song is not split.
    let parts: [Sequencer]
}
