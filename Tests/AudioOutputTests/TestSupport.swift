import Foundation
@_exported import TestSupport

@testable import AudioOutput

/// The known signal the tests write: a 1 kHz sine at −6 dBFS (cosine on the right), with a few
/// samples at ±1.5 to exercise clipping.
enum TestSignal {
    static let sampleRate = 48_000
    static let channels = 2
    static let frames = 12_000
    static let amplitude = Float(pow(10, -6.0 / 20)) // 0.501
    /// Frames whose samples are replaced by ±1.5: (frame, left, right).
    static let overs: [(frame: Int, left: Float, right: Float)] = [(100, 1.5, -1.5), (2_000, -1.5, 1.5), (7_001, 1.5, 1.5)]

    static func sine(frames: Int = frames, amplitude: Float = amplitude) -> [Float] {
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let phase = 2 * Double.pi * 1_000 * Double(frame) / Double(sampleRate)
            samples[frame * 2] = amplitude * Float(sin(phase))
            samples[frame * 2 + 1] = amplitude * Float(cos(phase))
        }
        return samples
    }

    static func withOvers() -> [Float] {
        var samples = sine()
        for over in overs {
            samples[over.frame * 2] = over.left
            samples[over.frame * 2 + 1] = over.right
        }
        return samples
    }

    static func isOver(sampleIndex index: Int) -> Bool {
        overs.contains { $0.frame == index / channels }
    }

    /// The root mean square of one channel.
    static func rms(_ samples: [Float], channel: Int) -> Float {
        var sum = 0.0
        var count = 0
        for index in stride(from: channel, to: samples.count, by: channels) {
            sum += Double(samples[index]) * Double(samples[index])
            count += 1
        }
        return Float((sum / Double(max(count, 1))).squareRoot())
    }

    static func peak(_ samples: [Float]) -> Float {
        samples.reduce(0) { max($0, abs($1)) }
    }
}

/// What reading a value back may differ by: half a step of the encoding, and a little more.
extension SampleEncoding {
    var tolerance: Float {
        switch self {
        case .pcm16: 1.0 / 32_768
        case .pcm24: 1.0 / 8_388_608
        case .float32: 0
        }
    }

    /// What full scale reads back as: one step below 1.
    var fullScale: Float {
        switch self {
        case .pcm16: 32_767.0 / 32_768
        case .pcm24: 8_388_607.0 / 8_388_608
        case .float32: 1
        }
    }
}

/// One file the tests write: a format and the encoding asked for.
struct FileKind: CustomStringConvertible, Sendable {
    let format: AudioFileFormat
    let encoding: SampleEncoding

    var description: String { "\(format.rawValue) \(encoding.bitsOption)" }

    /// Every combination smfplay writes (Ogg Vorbis once: it ignores the encoding).
    static let all: [FileKind] = AudioFileFormat.fileFormats.flatMap { format in
        format.storesSampleEncoding
            ? format.supportedEncodings.map { FileKind(format: format, encoding: $0) }
            : [FileKind(format: format, encoding: .pcm16)]
    }

    static let integer: [FileKind] = all.filter { $0.format.storesSampleEncoding && !$0.encoding.isFloatingPoint }
}
