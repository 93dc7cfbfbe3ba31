import Foundation
import Loudness
import Testing

/// libebur128 through the meter, on signals whose loudness EBU Tech 3341 gives.
struct LoudnessMeterTests {
    /// A 1 kHz sine in both channels at `decibels` dBFS, interleaved.
    static func sine(decibels: Double, seconds: Double, sampleRate: Int = 48_000) -> [Float] {
        let amplitude = Float(pow(10, decibels / 20))
        let frames = Int(seconds * Double(sampleRate))
        var samples = [Float](repeating: 0, count: 2 * frames)
        for frame in 0..<frames {
            let value = amplitude * Float(sin(2 * Double.pi * 1000 * Double(frame) / Double(sampleRate)))
            samples[2 * frame] = value
            samples[2 * frame + 1] = value
        }
        return samples
    }

    @Test("EBU Tech 3341 case 1: a stereo 1 kHz sine at -23 dBFS reads -23.0 LUFS, at -20 dBFS -20.0")
    func sineReadsItsLevel() throws {
        for level in [-23.0, -20.0] {
            let meter = try #require(LoudnessMeter(sampleRate: 48_000, measuresTruePeak: true))
            Self.sine(decibels: level, seconds: 20).withUnsafeBufferPointer { meter.add($0) }
            let measured = try #require(meter.measurement)
            #expect(abs(measured.integratedLUFS - level) <= 0.1, "\(level) dBFS read \(measured.integratedLUFS) LUFS")
            let peak = try #require(measured.truePeakDBTP)
            #expect(abs(peak - level) <= 0.1, "a sine's true peak is its amplitude: \(peak) dBTP for \(level) dBFS")
        }
    }

    /// Music below the standard's absolute gate (-70 LUFS: a piece played very softly, rendered at
    /// a low gain) was taken for silence, and `--normalize` left it at -70 LUFS; it reads its level.
    @Test("a sine at -80 dBFS, below the standard's gate, reads -80 LUFS; its true peak as ever")
    func quietMusicReadsItsLevel() throws {
        let meter = try #require(LoudnessMeter(sampleRate: 48_000, measuresTruePeak: true))
        Self.sine(decibels: -80, seconds: 10).withUnsafeBufferPointer { meter.add($0) }
        let measured = try #require(meter.measurement, "taken for silence")
        #expect(abs(measured.integratedLUFS + 80) <= 0.1, "\(measured.integratedLUFS) LUFS")
        #expect(abs(try #require(measured.truePeakDBTP) + 80) <= 0.1)
    }

    @Test("silence has no loudness")
    func silence() throws {
        let meter = try #require(LoudnessMeter(sampleRate: 44_100, measuresTruePeak: false))
        [Float](repeating: 0, count: 2 * 44_100 * 5).withUnsafeBufferPointer { meter.add($0) }
        #expect(meter.measurement == nil)
    }

    @Test("the meter on its own thread reads what it reads on the caller's, whatever the blocks' sizes")
    func threadReadsTheSame() throws {
        let samples = Self.sine(decibels: -17, seconds: 6, sampleRate: 44_100)
        let direct = try #require(LoudnessMeter(sampleRate: 44_100, measuresTruePeak: true))
        samples.withUnsafeBufferPointer { direct.add($0) }
        // Blocks larger than a slot (split), smaller, and of odd sizes.
        let threaded = try #require(LoudnessMeterThread(sampleRate: 44_100, measuresTruePeak: true, blockFrames: 1000))
        var offset = 0
        for frames in [3000, 17, 1000, 999, 4096] where offset < samples.count {
            samples.withUnsafeBufferPointer { all in
                let count = min(2 * frames, all.count - offset)
                threaded.add(UnsafeBufferPointer(rebasing: all[offset..<(offset + count)]))
                offset += count
            }
        }
        samples.withUnsafeBufferPointer { threaded.add(UnsafeBufferPointer(rebasing: $0[offset...])) }
        #expect(threaded.finish() == direct.measurement)
        #expect(threaded.finish() == direct.measurement, "finish() again returns the same")
    }

    @Test("a meter let go before finish() ends its thread")
    func letGo() throws {
        for _ in 0..<50 {
            let meter = try #require(LoudnessMeterThread(sampleRate: 44_100, measuresTruePeak: false))
            Self.sine(decibels: -20, seconds: 1, sampleRate: 44_100).withUnsafeBufferPointer { meter.add($0) }
        }
    }

    @Test("the normalizing gain brings a song to the target, the gain over the reference a trim, a very quiet song too; silence stays as it is")
    func targetGain() {
        let target = LoudnessTarget(integratedLUFS: -18, referenceGain: 0.5)
        // At gain 1 the song reads -10 LUFS: at the reference gain (0.5, -6.02 dB) -16.02, 1.98 dB too loud.
        let gain = target.gain(forUnityLoudness: Loudness(integratedLUFS: -10, seconds: 60))
        #expect(abs(Loudness.decibels(ofGain: Double(gain)) + 1.98) < 0.01)
        #expect(target.gain(forUnityLoudness: nil) == 1)
        // -40 LUFS at the reference: raised 22 dB.
        let quiet = target.gain(forUnityLoudness: Loudness(integratedLUFS: -40 + 6.0206, seconds: 60))
        #expect(abs(Loudness.decibels(ofGain: Double(quiet)) - 22) < 0.01)
    }

    @Test("songs together read close to the songs measured as one recording: louder than the quiet one, quieter than the loud one")
    func songsTogether() throws {
        // A song a quarter of whose length is near silence (which its own gate leaves out, and the
        // folder's gate too), and a quieter, shorter one.
        let loud = Self.sine(decibels: -20, seconds: 60) + Self.sine(decibels: -45, seconds: 20)
        let quiet = Self.sine(decibels: -26, seconds: 30)
        func measured(_ samples: [Float]) throws -> Loudness {
            let meter = try #require(LoudnessMeter(sampleRate: 48_000, measuresTruePeak: true))
            samples.withUnsafeBufferPointer { meter.add($0) }
            return try #require(meter.measurement)
        }
        let songs = [try measured(loud), try measured(quiet)]
        #expect(abs(songs[0].seconds - 80) < 0.001 && abs(songs[1].seconds - 30) < 0.001)
        let together = try #require(Loudness(together: songs))
        let asOne = try measured(loud + quiet)
        #expect(abs(together.integratedLUFS - asOne.integratedLUFS) <= 0.3, "\(together.integratedLUFS) LUFS, as one \(asOne.integratedLUFS)")
        #expect(together.integratedLUFS < songs[0].integratedLUFS - 0.5 && together.integratedLUFS > songs[1].integratedLUFS + 3)
        #expect(together.truePeakDBTP == songs.compactMap(\.truePeakDBTP).max())
        #expect(together.seconds == 110)
        #expect(Loudness(together: []) == nil)
    }
}
