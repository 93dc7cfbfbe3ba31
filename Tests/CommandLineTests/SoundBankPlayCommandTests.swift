import Foundation
import TestSupport
import Testing

/// `smfplay play --soundfont bank.dls` through a real PulseAudio server (the harness of
/// `PlayCommandTests`): what reaches the sink is the DLS bank's square wave.
@Suite("smfplay play: a DLS sound bank through a real PulseAudio server", .serialized, .sharedPulseAudioServer)
struct SoundBankPlayCommandTests {
    static let bank = TestSoundBank(presets: [.init("Test Square", program: 1, waveform: .square)])

    let server: PulseAudioServer

    init() throws {
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
    }

    @Test("a held A4 on the DLS bank's square is heard as a square: 440 Hz, odd harmonics at 1/n, no even ones")
    func dlsSquareIsHeard() throws {
        let sandbox = try Sandbox()
        try Self.bank.write(.downloadableSounds, to: sandbox.path("bank.dls"))
        try sandbox.write("square.mid", Songs.song(program: 1, notes: [(69, 0, 2 * Songs.ticksPerSecond)], length: 2 * Songs.ticksPerSecond))
        let take = try Take(server)
        let player = try PlayingCommand(
            sandbox, ["play", "square.mid", "--soundfont", "bank.dls", "--no-reverb", "--no-chorus", "--latency", "50", "--verbose"], server: server)
        let exit = player.wait(timeLimit: 15)
        let (sound, _) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        let start = try #require(sound.spans.first?.lowerBound, "nothing reached the sink: \(player.report(exit))")
        // 0.34 s (16,384 frames at 48 kHz) from half a second into the note: its loop, steady.
        let spectrum = PowerSpectrum(stereo: sound.audio.samples, sampleRate: Double(Take.sampleRate), start: Take.seconds(start) + 0.5)
        let shares = spectrum.harmonicShares(fundamental: 440, count: 10)
        #expect(abs(spectrum.peakFrequency - 440) < 2 * spectrum.binWidth, "peak at \(spectrum.peakFrequency) Hz")
        #expect(shares[1] + shares[3] + shares[5] < 0.001, "even harmonics: \(shares)")
        #expect((0.07...0.16).contains(shares[2] / shares[0]), "the third harmonic against the first: \(shares)")
        #expect(shares.reduce(0, +) > 0.95, "energy between the harmonics: \(shares)")
    }
}
