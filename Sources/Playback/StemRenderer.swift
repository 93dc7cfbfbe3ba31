import AudioOutput
import Files
import SMF
import Synthesis
import SystemPackage

/// Renders a song's stems: an audio file for each part (a channel on a MIDI port) that sounds,
/// in a folder of the song's own, and the mix beside them.
///
/// One synthesizer renders each part into an output of its own, with a reverb and a chorus of its
/// own (FluidSynth's audio and effects groups, ``Synthesizer/outputs``): each stem is its channel
/// as heard in the mix, effects included, and FluidSynth's effects being linear, the stems sum to
/// the mix one synthesizer renders. So that they do, stems are written as rendered: not limited,
/// not normalized. The mix (``mixName``) is written as `render` writes a song, through the limiter
/// unless the options turn it off. A stem's file is started when its part first sounds (above
/// ``RenderOptions/silenceThreshold``), with the silence before; a part that never does gets none.
public final class StemRenderer: @unchecked Sendable {
    // @unchecked: confined. One batch worker renders with it at a time.
    /// Any synthesizer of the batch's: it keeps the SoundFonts in FluidSynth's sample cache, so
    /// that each song's own synthesizer costs its presets and voices, not a SoundFont's load.
    private let cache: Synthesizer
    private static let blockFrames = 4096
    /// The mix of a block, interleaved stereo; one stem of it; silence to start a stem with.
    private let mix: UnsafeMutablePointer<Float>
    private let stem: UnsafeMutablePointer<Float>
    private let silence: UnsafeMutablePointer<Float>
    /// The mix's limiter, made at the first render that wants one.
    private var limiter: PeakLimiter?

    /// The name of the mix in a song's folder, before its extension.
    public static let mixName = "Mix"

    public init(keeping synthesizer: Synthesizer) {
        cache = synthesizer
        mix = .allocate(capacity: 2 * Self.blockFrames)
        stem = .allocate(capacity: 2 * Self.blockFrames)
        silence = .allocate(capacity: 2 * Self.blockFrames)
        silence.initialize(repeating: 0, count: 2 * Self.blockFrames)
    }

    deinit {
        mix.deallocate()
        stem.deallocate()
        silence.deallocate()
    }

    /// Where the mix of the stems in `folder` goes: written last, so that it is there only when
    /// every stem is.
    public static func mixPath(in folder: FilePath, format: AudioFileFormat) -> FilePath {
        folder.appending("\(mixName).\(format.fileExtension)")
    }

    /// Renders `song`'s stems and mix into `folder`, which is made if need be. Each file appears
    /// only once complete, the mix last; a failed or cancelled render removes the files it has
    /// not finished (and the folder, if it made it and it stays empty). `options`, `songBank`,
    /// `sound` and `progress` as for ``SongRenderer/render(_:to:options:cores:songBank:sound:cancellation:progress:)``,
    /// but for normalizing, which would change the stems' sum (refused before).
    public func render(
        _ song: Song, toFolder folder: FilePath, options: RenderOptions, songBank: SongSoundBank? = nil, sound: SongSettings? = nil,
        cancellation: Cancellation? = nil, progress: (Double) -> Void = { _ in }
    ) throws(RenderError) -> RenderResult {
        precondition(options.normalization == .off, "stems are written as they sum to the mix")
        let settings = sound?.synthesizer ?? cache.configuration
        let soundFonts = (sound?.soundFonts ?? cache.soundFonts).with(songBank: songBank)
        let ports = Synthesizer.channelCount / 16
        let parts = SongParts(song: song, mode: settings.midiMode ?? MIDIModeDetection(song: song).mode, ports: ports)
        let synthesizer: Synthesizer
        do {
            synthesizer = try Synthesizer(settings: settings, soundFonts: soundFonts, outputs: 16 * parts.portCount)
        } catch {
            throw .synthesizer(error)
        }
        synthesizer.performance.current = options.performance
        let sequencer = Sequencer(song: song, synthesizer: synthesizer, loops: options.loops)
        let madeFolder = !folder.isFolder
        do {
            try folder.makeFolders(permissions: FilePermissions(rawValue: 0o755))
        } catch {
            throw .outputFolder(error)
        }
        do {
            let rendered = try write(sequencer, parts: parts, into: folder, options: options, cancellation: cancellation, progress: progress)
            let loopProblem = options.loops.isAsWritten ? nil : sequencer.loopFinding.problemWhenLooping
            return RenderResult(
                songSeconds: song.duration, audioSeconds: Double(rendered.frames) / settings.sampleRate, peak: rendered.mixPeak,
                normalizationGain: 1, limiterReductionDecibels: options.limitsPeaks ? limiter?.largestReductionDecibels ?? 0 : 0,
                substitutions: synthesizer.substitutions, loopProblem: loopProblem, songBankProblem: synthesizer.songBankProblem)
        } catch {
            if madeFolder { folder.removeFolderIfEmpty() }
            throw error
        }
    }

    /// What was written: frames in each file, and the mix's peak.
    private struct Written {
        var frames: Int
        var mixPeak: Float
    }

    /// Renders the song, then its tail until the mix is silent or the tail limit runs out (as
    /// ``SongRenderer`` does, so that the mix ends at the same frame), and writes every file.
    private func write(
        _ sequencer: Sequencer, parts: SongParts, into folder: FilePath, options: RenderOptions, cancellation: Cancellation?,
        progress: (Double) -> Void
    ) throws(RenderError) -> Written {
        let synthesizer = sequencer.synthesizer
        let sampleRate = Int(synthesizer.configuration.sampleRate)
        let stems = StemBuffers(outputs: synthesizer.outputs, capacity: Self.blockFrames)
        var writers = [AudioFileWriter?](repeating: nil, count: synthesizer.outputs)
        if options.limitsPeaks, limiter == nil { limiter = PeakLimiter(sampleRate: Double(sampleRate)) }
        let mixWriter: AudioFileWriter
        do throws(AudioFileError) {
            mixWriter = try audioFile(Self.mixPath(in: folder, format: options.format), options: options, sampleRate: sampleRate)
        } catch {
            throw .output(error)
        }
        var mixOutput = LimitedWriter(writer: mixWriter, limiter: options.limitsPeaks ? limiter : nil)
        var blocks = RenderBlocks(
            sequencer: sequencer, blockFrames: Self.blockFrames, tailFrames: Int((options.tailLimit * Double(sampleRate)).rounded()))
        let total = Double(max(sequencer.framesToEnd ?? 1, 1))
        var written = 0
        let isCancelled = { cancellation?.isCancelled ?? false }
        do throws(AudioFileError) {
            while !isCancelled(), let block = blocks.render(into: stems) {
                let frames = block.frames
                stems.mix(frames: frames, into: mix)
                if block.isTail, !Self.sounds(mix, frames: frames) { break }
                for output in 0..<stems.outputs {
                    stems.interleave(output, frames: frames, into: stem)
                    if writers[output] == nil {
                        guard Self.sounds(stem, frames: frames) else { continue }
                        let path = folder.appending(Self.stemName(part: output, parts: parts, format: options.format))
                        writers[output] = try audioFile(path, options: options, sampleRate: sampleRate)
                        try writeSilence(frames: written, to: writers[output]!)
                    }
                    try writers[output]!.write(UnsafeBufferPointer(start: stem, count: 2 * frames))
                }
                try mixOutput.write(mix, frames: frames)
                written += frames
                if !block.isTail { progress(min(1, Double(written) / total)) }
            }
        } catch {
            throw .output(error)
        }
        // The files not finished go with their writers.
        if isCancelled() { throw .cancelled(output: folder) }
        do throws(AudioFileError) {
            try mixOutput.finish(scratch: mix)
            for writer in writers { try writer?.finish() }
            try mixWriter.finish()
        } catch {
            throw .output(error)
        }
        progress(1)
        return Written(frames: written, mixPeak: mixWriter.peak)
    }

    /// A new file for a stem or the mix, in the options' format.
    private func audioFile(_ path: FilePath, options: RenderOptions, sampleRate: Int) throws(AudioFileError) -> AudioFileWriter {
        try AudioFileWriter(path: path, format: options.format, encoding: options.encoding, sampleRate: sampleRate, channels: 2, tags: options.tags)
    }

    /// Writes `frames` frames of silence: the start of a stem whose part sounds later.
    private func writeSilence(frames: Int, to writer: AudioFileWriter) throws(AudioFileError) {
        var left = frames
        while left > 0 {
            let chunk = min(left, Self.blockFrames)
            try writer.write(UnsafeBufferPointer(start: silence, count: 2 * chunk))
            left -= chunk
        }
    }

    private static func sounds(_ samples: UnsafeMutablePointer<Float>, frames: Int) -> Bool {
        UnsafeBufferPointer(start: samples, count: 2 * frames).contains { abs($0) >= RenderOptions.silenceThreshold }
    }

    /// A stem's file name: its channel, 1–16 in two digits, after a letter for ports other than
    /// the first (B for the second), then what it plays: `01 Acoustic Grand Piano.wav`, `B10 Percussion.wav`.
    private static func stemName(part: Int, parts: SongParts, format: AudioFileFormat) -> String {
        let port = part / 16
        let channel = part % 16 + 1
        let letter = port == 0 ? "" : String(UnicodeScalar(UInt8(ascii: "A") + UInt8(port)))
        return "\(letter)\(channel < 10 ? "0" : "")\(channel) \(parts.instrument(ofPart: part)).\(format.fileExtension)"
    }
}
