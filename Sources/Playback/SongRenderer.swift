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
    public func render(_ song: Song, to output: FilePath, options: RenderOptions, cancellation: Cancellation? = nil,
                       progress: (Double) -> Void = { _ in }) throws(RenderError) -> RenderResult {
        let synthesizer = try freshSynthesizer()
        let isCancelled = { cancellation?.isCancelled ?? false }
        do {
            guard options.normalize else {
                let writer = try AudioFileWriter(path: output, format: options.format, encoding: options.encoding, sampleRate: sampleRate, channels: 2)
                let (frames, loopProblem) = try synthesize(song, with: synthesizer, into: writer, options: options, isCancelled: isCancelled, progress: progress)
                if isCancelled() { throw RenderError.cancelled(output: output) }
                try writer.finish()
                return result(song: song, frames: frames, peak: writer.peak, gain: 1, synthesizer: synthesizer, options: options, loopProblem: loopProblem)
            }
            // The float render keeps every sample exact, so normalizing needs no second synthesis.
            let floatPath = Self.intermediatePath(for: output)
            defer { _ = floatPath.withPlatformString { unlink($0) } }
            let floats = try AudioFileWriter(path: floatPath, format: .wav, encoding: .float32, sampleRate: sampleRate, channels: 2)
            let (frames, loopProblem) = try synthesize(song, with: synthesizer, into: floats, options: options, isCancelled: isCancelled, progress: progress)
            if isCancelled() { throw RenderError.cancelled(output: output) }
            try floats.finish()
            let gain = AudioFileWriter.normalizingGain(peak: floats.peak)
            let writer = try AudioFileWriter(path: output, format: options.format, encoding: options.encoding, sampleRate: sampleRate, channels: 2)
            try writer.copy(from: try AudioFileReader(path: floatPath), gain: gain)
            try writer.finish()
            return result(song: song, frames: frames, peak: floats.peak, gain: gain, synthesizer: synthesizer, options: options, loopProblem: loopProblem)
        } catch let error as AudioFileError {
            throw .output(error)
        } catch let error as RenderError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    private func result(song: Song, frames: Int, peak: Float, gain: Float, synthesizer: Synthesizer, options: RenderOptions,
                        loopProblem: String?) -> RenderResult {
        RenderResult(songSeconds: song.duration, audioSeconds: Double(frames) / Double(sampleRate), peak: peak, normalizationGain: gain,
                     limiterReductionDecibels: options.limitsPeaks ? limiter?.largestReductionDecibels ?? 0 : 0,
                     substitutions: synthesizer.substitutions, loopProblem: loopProblem)
    }

    /// Renders the song, then its tail until the output is silent or the tail limit runs out,
    /// through the limiter unless the options turn it off. Returns the number of frames written,
    /// and why the song's loop marks make no loop when loops were asked for.
    private func synthesize(_ song: Song, with synthesizer: Synthesizer, into file: AudioFileWriter, options: RenderOptions, isCancelled: () -> Bool,
                            progress: (Double) -> Void) throws(AudioFileError) -> (frames: Int, loopProblem: String?) {
        if options.limitsPeaks, limiter == nil { limiter = PeakLimiter(sampleRate: Double(sampleRate)) }
        var writer = LimitedWriter(writer: file, limiter: options.limitsPeaks ? limiter : nil)
        synthesizer.performance.current = options.performance
        let sequencer = Sequencer(song: song, synthesizer: synthesizer, loops: options.loops)
        let start = block.baseAddress!
        var written = 0
        let total = Double(max(sequencer.framesToEnd ?? 1, 1))
        while !sequencer.isAtEnd, let left = sequencer.framesToEnd, left > 0, !isCancelled() {
            let frames = Int(min(Int64(Self.blockFrames), left))
            sequencer.render(into: start, frames: frames)
            try writer.write(start, frames: frames)
            written += frames
            progress(min(1, Double(written) / total))
        }
        let tailEnd = written + Int((options.tailLimit * Double(sampleRate)).rounded())
        while written < tailEnd, !isCancelled() {
            let frames = min(Self.blockFrames, tailEnd - written)
            // Through the sequencer: events at the very last frame (note-offs) are still due.
            sequencer.render(into: start, frames: frames)
            let isSilent = !UnsafeBufferPointer(rebasing: block[..<(2 * frames)]).contains { abs($0) >= RenderOptions.silenceThreshold }
            if isSilent { break }
            try writer.write(start, frames: frames)
            written += frames
        }
        try writer.finish(scratch: start)
        progress(1)
        return (written, options.loops == .asWritten ? nil : sequencer.loopFinding.problem)
    }

    /// A hidden file beside the output, so that it lands on the same disk.
    private static func intermediatePath(for output: FilePath) -> FilePath {
        let name = output.lastComponent.map { $0.bytes.map { CChar(bitPattern: $0) } } ?? []
        let bytes = [CChar(UInt8(ascii: "."))] + name.prefix(200) + Array(".float-\(getpid()).wav".utf8CString)
        return TemporarySibling.folder(of: output).appending(FilePath.Component(platformString: bytes) ?? "float.wav")
    }
}
