import Foundation
import SMF
import TestSupport
import Testing

/// `smfplay play` of RMID files that carry their own banks, through a real PulseAudio server (the
/// harness of `PlayCommandTests`): each song is heard with its own bank, and the queue goes from
/// one bank to the next as fast as it goes from song to song on one bank.
@Suite("smfplay play: RMID files with their own sound banks through a real PulseAudio server", .serialized, .sharedPulseAudioServer)
struct EmbeddedBankPlayCommandTests {
    /// Two banks whose program 1 differ only in their wave: the same envelope, so that the songs'
    /// tails, and the moments between them, are alike.
    static let square = TestSoundBank(presets: [.init("Square", program: 1, waveform: .square)])
    static let sawtooth = TestSoundBank(presets: [.init("Sawtooth", program: 1, waveform: .sawtooth)])
    /// A4, C5, E5, A5: one held note a second long per song.
    static let notes: [UInt8] = [69, 72, 76, 81]

    let server: PulseAudioServer

    init() throws {
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
    }

    static func song(_ note: UInt8) -> [UInt8] {
        Songs.song(program: 1, notes: [(note, 0, Songs.ticksPerSecond)], length: Songs.ticksPerSecond)
    }

    /// Plays `files` and returns the notes heard, in order, with where each starts.
    private func play(_ sandbox: Sandbox, _ files: [String], options: [String] = []) throws -> (runs: [(note: Int, frames: Range<Int>)], take: Sound)
    {
        let take = try Take(server)
        let player = try PlayingCommand(
            sandbox, ["play"] + files + options + ["--no-reverb", "--no-chorus", "--latency", "50", "--verbose"], server: server)
        let exit = player.wait(timeLimit: 20)
        let (sound, _) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        #expect(player.problems.isEmpty, "\(player.report(exit))")
        return (sound.noteRuns(), sound)
    }

    @Test("songs alternating between two embedded banks are each heard with their own bank, and follow one another as closely as songs on one bank")
    func alternatingBanksPlayWithoutLongerGaps() throws {
        let sandbox = try Sandbox()
        let banks = [Self.square, Self.sawtooth, Self.square, Self.sawtooth]
        var embedded: [String] = []
        var plain: [String] = []
        for (index, (note, bank)) in zip(Self.notes, banks).enumerated() {
            // Offset 0: the bank's program 1 replaces the stack's.
            try sandbox.write("song\(index).rmi", RMIDWriter(bankOffset: 0).encode(song: Self.song(note), soundBank: try bank.bytes(.soundFont2)))
            try sandbox.write("plain\(index).mid", Self.song(note))
            embedded.append("song\(index).rmi")
            plain.append("plain\(index).mid")
        }
        let heard = try play(sandbox, embedded)
        #expect(heard.runs.map(\.note) == Self.notes.map(Int.init), "notes heard: \(heard.runs.map(\.note))")
        for (run, bank) in zip(heard.runs, banks) {
            // 0.34 s from 0.3 s into the note: the bank's loop, steady.
            let spectrum = PowerSpectrum(
                stereo: heard.take.audio.samples, sampleRate: Double(Take.sampleRate), start: Take.seconds(run.frames.lowerBound) + 0.3)
            let frequency = 440 * pow(2, Double(run.note - 69) / 12)
            let shares = spectrum.harmonicShares(fundamental: frequency, count: 4)
            // A square has no even harmonics; a sawtooth's second is a quarter of its first.
            let secondToFirst = shares[1] / max(shares[0], 1e-30)
            if bank.presets[0].waveform == .square {
                #expect(secondToFirst < 0.01, "note \(run.note) should be the square: \(shares)")
            } else {
                #expect((0.15...0.35).contains(secondToFirst), "note \(run.note) should be the sawtooth: \(shares)")
            }
        }

        // The same songs as plain files on the square bank alone: today's pace from song to song.
        try Self.square.write(.soundFont2, to: sandbox.path("square.sf2"))
        // --no-sidecar: square.sf2 is the folder's only bank; the plain songs play on one synthesizer.
        let oneBank = try play(sandbox, plain, options: ["--soundfont", "square.sf2", "--no-sidecar"])
        #expect(oneBank.runs.map(\.note) == Self.notes.map(Int.init), "notes heard: \(oneBank.runs.map(\.note))")
        func intervals(_ runs: [(note: Int, frames: Range<Int>)]) -> [Double] {
            zip(runs, runs.dropFirst()).map { Take.seconds($1.frames.lowerBound - $0.frames.lowerBound) }
        }
        let withBanks = intervals(heard.runs)
        let withoutBanks = intervals(oneBank.runs)
        print("from song to song: with their own banks \(withBanks) s, on one bank \(withoutBanks) s")
        for (banked, plain) in zip(withBanks, withoutBanks) {
            // One 20 ms window of the note detection either way, and a little for the output.
            #expect(banked <= plain + 0.05, "a song with its own bank started \(banked - plain) s later than on one bank")
        }
    }
}
