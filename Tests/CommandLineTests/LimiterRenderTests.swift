import AudioOutput
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

/// The limiter as `smfplay render` uses it: loud songs stop at −1 dBFS, quiet songs are untouched,
/// and the report says how much each file was turned down.
@Suite("render's limiter")
struct LimiterRenderTests {
    /// −1 dBFS.
    static let ceiling = 0.891_250_9

    /// Sixteen channels of fortissimo chords, brass, strings, organ and drums, for two seconds.
    static let tutti: [UInt8] = {
        var track = Track()
        let programs: [UInt8] = [0, 19, 48, 61, 56, 73, 33, 30, 52, 4, 16, 40, 42, 57, 68, 81]
        for channel in 0..<16 where channel != 9 {
            track.append(.programChange(channel: UInt8(channel), program: programs[channel]), atTick: 0)
            track.append(.controlChange(channel: UInt8(channel), controller: 7, value: 127), atTick: 0)
        }
        for beat in 0..<4 {
            let tick = UInt32(beat * 480)
            for channel in 0..<16 {
                let notes: [UInt8] = channel == 9 ? [36, 38, 49] : [48, 55, 60, 64, 67].map { $0 + UInt8(beat % 2) * 5 }
                for note in notes { track.append(.noteOn(channel: UInt8(channel), note: note, velocity: 127), atTick: tick) }
            }
            for channel in 0..<16 {
                let notes: [UInt8] = channel == 9 ? [36, 38, 49] : [48, 55, 60, 64, 67].map { $0 + UInt8(beat % 2) * 5 }
                for note in notes { track.append(.noteOff(channel: UInt8(channel), note: note, velocity: 0), atTick: tick + 450) }
            }
        }
        track.append(.meta(.endOfTrack), atTick: 1920)
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }()

    static func peakDecibels(_ path: String) throws -> Double {
        let samples = try AudioFileReader(path: FilePath(path)).readAll()
        return 20 * log10(Double(samples.map(abs).max() ?? 0))
    }

    @Test("a tutti at --gain 2 peaks at −1 dBFS; without the limiter it clips")
    func tuttiStopsAtTheCeiling() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("tutti.mid", Self.tutti)
        let limited = try sandbox.run(["render", "tutti.mid", "-o", "limited.wav", "--bits", "32f", "--gain", "2"] + Fixtures.fast)
        #expect(limited.succeeded, "\(limited)")
        let peak = try Self.peakDecibels(sandbox.path("limited.wav"))
        #expect(abs(peak - -1) <= 0.1, "peak \(peak) dBFS")
        #expect(limited.stdout.contains("limited by"), "\(limited)")
        let clipping = try sandbox.run(["render", "tutti.mid", "-o", "raw.wav", "--bits", "32f", "--gain", "2", "--no-limiter"] + Fixtures.fast)
        #expect(clipping.succeeded, "\(clipping)")
        #expect(try Self.peakDecibels(sandbox.path("raw.wav")) > 0, "the tutti does not clip without the limiter: the test shows nothing")
        #expect(!clipping.stdout.contains("limited by"), "\(clipping)")
    }

    @Test("a quiet song renders the same, sample for sample, with and without the limiter")
    func quietSongIsUntouched() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("quiet.mid", Fixtures.song(beats: 8))
        let with = try sandbox.run(["render", "quiet.mid", "-o", "with.wav", "--bits", "32f"] + Fixtures.fast)
        let without = try sandbox.run(["render", "quiet.mid", "-o", "without.wav", "--bits", "32f", "--no-limiter"] + Fixtures.fast)
        #expect(with.succeeded && without.succeeded, "\(with)\n\(without)")
        let limited = try AudioFileReader(path: FilePath(sandbox.path("with.wav"))).readAll()
        let plain = try AudioFileReader(path: FilePath(sandbox.path("without.wav"))).readAll()
        #expect(limited.count == plain.count && limited == plain, "\(limited.count) and \(plain.count) samples, or samples differ")
        #expect(try Self.peakDecibels(sandbox.path("without.wav")) < -1)
    }

    @Test("render --json: a line per file with the limiter's reduction, nothing else on standard output")
    func jsonReportsTheReduction() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("in/tutti.mid", Self.tutti)
        try sandbox.write("in/quiet.mid", Fixtures.song())
        let result = try sandbox.run(["render", "in", "-o", "out", "--gain", "2", "--json", "--jobs", "1"] + Fixtures.fast)
        #expect(result.succeeded, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.count == 2, "\(result)")
        var reductions: [String: Double] = [:]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            let input = try #require(object["input"] as? String)
            reductions[(input as NSString).lastPathComponent] = object["limiterReductionDecibels"] as? Double
            #expect(object["output"] is String && object["seconds"] is Double && object["peakDecibels"] != nil, "\(line)")
        }
        #expect((reductions["tutti.mid"] ?? 0) > 3, "\(reductions)")
        // Each line must say it: a report without the key fails, where it passed before.
        let quiet = try #require(reductions["quiet.mid"], "no limiterReductionDecibels for quiet.mid: \(reductions)")
        #expect(quiet < 3, "\(reductions)")
    }
}
