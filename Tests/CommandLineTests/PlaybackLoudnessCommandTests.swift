import Foundation
import Loudness
import TestSupport
import Testing

/// `smfplay play --loudness`: songs 10 LU apart, played one after the other through a real
/// PulseAudio server and recorded from its monitor, each song's loudness measured on the
/// recording (libebur128, EBU R128 integrated).
@Suite("smfplay play --loudness: every song at the same loudness, through a real PulseAudio server", .serialized, .sharedPulseAudioServer)
struct PlaybackLoudnessCommandTests {
    let server: PulseAudioServer

    init() throws {
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
    }

    /// A loud and a quiet song (10 LU apart), each 6 s of music after 2 s of silence.
    static func songs(in sandbox: Sandbox, seconds: Int = 6) throws {
        try sandbox.write("Library/a-loud.mid", LoudnessSong.file(volume: 127, seconds: seconds, restBars: 1))
        try sandbox.write("Library/b-quiet.mid", LoudnessSong.file(volume: LoudnessSong.tenBelow, seconds: seconds, restBars: 1))
    }

    static let sound = ["--soundfont", Fixtures.soundFont, "--no-reverb", "--no-chorus"]

    /// Plays the library's two songs and returns the loudness heard of each, over `window` (seconds
    /// into each song's music).
    private func play(_ sandbox: Sandbox, _ options: [String], window: ClosedRange<Double>) throws -> [Double] {
        let take = try Take(server)
        let player = try PlayingCommand(
            sandbox, ["play", "Library/a-loud.mid", "Library/b-quiet.mid"] + Self.sound + options + ["--latency", "50"], server: server)
        let exit = player.wait(timeLimit: 40)
        let (sound, _) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        // Each song's music: a span of sound of several seconds, after its silence.
        let music = sound.spans.filter { Take.seconds($0.count) > 3 }
        try #require(music.count == 2, "spans of music heard: \(Take.describe(sound.spans))")
        return try music.map { span in
            let start = span.lowerBound + Take.frames(window.lowerBound)
            let end = min(span.upperBound, span.lowerBound + Take.frames(window.upperBound))
            let meter = try #require(LoudnessMeter(sampleRate: Take.sampleRate, measuresTruePeak: false))
            Array(sound.audio.samples[(2 * start)..<(2 * end)]).withUnsafeBufferPointer { meter.add($0) }
            return try #require(meter.measurement, "silence where a song should be").integratedLUFS
        }
    }

    @Test("songs measured before (index --loudness) play within 1 LU of each other with --loudness track, and 10 LU apart with off")
    func knownSongs() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.songs(in: sandbox)
        let index = try sandbox.run(["index", "--library", "Library", "--loudness", "-q"] + Self.sound)
        try #require(index.succeeded, "\(index)")

        let off = try play(sandbox, ["--loudness", "off"], window: 0.5...5.5)
        #expect(abs(off[0] - off[1] - 10) <= 1, "with --loudness off: \(off) LUFS")
        let track = try play(sandbox, ["--loudness", "track"], window: 0.5...5.5)
        #expect(abs(track[0] - track[1]) <= 1, "with --loudness track: \(track) LUFS")
        // At the target: -18 LUFS at the default gain.
        for heard in track { #expect(abs(heard + 18) <= 1, "with --loudness track: \(track) LUFS") }
    }

    @Test("songs never measured start as they sound, are measured while they play, and end within 1 LU of each other")
    func unknownSongs() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.songs(in: sandbox, seconds: 10)
        // From 6 s into each song: the first ramps to its level over 3 s once measured (in the
        // background, in a fraction of a second); the second was measured before it started.
        let track = try play(sandbox, [], window: 6...9.5)
        #expect(abs(track[0] - track[1]) <= 1, "with --loudness track (the default): \(track) LUFS")
        for heard in track { #expect(abs(heard + 18) <= 1, "with --loudness track: \(track) LUFS") }
        // Kept: both songs are known now.
        #expect(try RenderLoudnessMemoryTests.measurementCount(sandbox) == 2)
    }

    @Test("with --loudness folder the songs of a folder keep their 10 LU within 0.5, the folder together at the target")
    func folder() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.songs(in: sandbox)
        let index = try sandbox.run(["index", "--library", "Library", "--loudness", "-q"] + Self.sound)
        try #require(index.succeeded, "\(index)")
        let heard = try play(sandbox, ["--loudness", "folder"], window: 0.5...5.5)
        #expect(abs(heard[0] - heard[1] - 10) <= 0.5, "with --loudness folder: \(heard) LUFS")
        // Two songs as long, 10 LU apart: together 2.6 LU under the loud one.
        let together = 10 * log10((pow(10, heard[0] / 10) + pow(10, heard[1] / 10)) / 2)
        #expect(abs(together + 18) <= 1, "the folder together: \(together) LUFS (songs \(heard))")
    }
}
