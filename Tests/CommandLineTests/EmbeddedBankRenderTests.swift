import AudioOutput
import Foundation
import SMF
import SoundComparison
import SystemPackage
import TestSupport
import Testing

/// `smfplay render` of RMID files that carry their own sound bank (SF2, SF3, DLS) with bank
/// offsets 0, 1 (written, and the default when none is) and 5: each renders as FluidSynth plays the
/// same song with the bank stacked over FluidR3_GM and the offset taken off the song's bank
/// selects, and clearly unlike FluidR3_GM alone.
@Suite("smfplay render: an RMID file's own sound bank")
struct EmbeddedBankRenderTests {
    static let fluidR3 = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    /// A square at bank 0, program 0 and a noise drum kit: nothing like FluidR3_GM's piano and kit.
    static let bank = TestSoundBank(presets: [.init("Test Square", program: 0, waveform: .square), .drumKit("Test Noise Kit")])

    /// A melody on channel 1 at bank `melodyBank` (MSB), program 0, with drums; and a violin (bank
    /// 0, program 41) that the bank has not, from 2 s: FluidR3_GM's plays it. End at 3.2 s.
    static func song(melodyBank: UInt8) -> [UInt8] {
        var events: [(tick: UInt32, message: MIDIMessage)] = [
            (0, .controlChange(channel: 0, controller: 0, value: melodyBank)), (0, .programChange(channel: 0, program: 0)),
            (0, .programChange(channel: 1, program: 40)),
        ]
        for (step, key) in [69, 72, 76, 81, 76, 72, 69, 64].enumerated() {
            let tick = UInt32(step * 240)
            let drum: UInt8 = step % 2 == 0 ? 36 : 38
            events += [
                (tick, .noteOn(channel: 0, note: UInt8(key), velocity: 100)), (tick + 200, .noteOff(channel: 0, note: UInt8(key), velocity: 0)),
            ]
            events += [(tick, .noteOn(channel: 9, note: drum, velocity: 100)), (tick + 100, .noteOff(channel: 9, note: drum, velocity: 0))]
        }
        events += [(1_920, .noteOn(channel: 1, note: 69, velocity: 100)), (2_880, .noteOff(channel: 1, note: 69, velocity: 0))]
        var track = Track()
        for event in events.enumerated().sorted(by: { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }) {
            track.append(event.element.message, atTick: event.element.tick)
        }
        track.append(.meta(.endOfTrack), atTick: 3_072)
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var format: TestSoundBank.Format
        /// The DBNK written; nil writes none.
        var writtenOffset: Int?
        var offset: Int { writtenOffset ?? EmbeddedSoundBank.defaultBankOffset }
        var testDescription: String { "\(format.fileExtension), \(writtenOffset.map { "DBNK \($0)" } ?? "no DBNK")" }
    }

    static let cases: [Case] = [
        Case(format: .soundFont2, writtenOffset: nil), Case(format: .soundFont2, writtenOffset: 0), Case(format: .soundFont2, writtenOffset: 5),
        Case(format: .soundFont3, writtenOffset: 1), Case(format: .downloadableSounds, writtenOffset: nil),
    ]

    /// The bank as an SF2 whose preset headers are overwritten: its outline reads, FluidSynth
    /// refuses it.
    static func damagedBank() throws -> [UInt8] {
        var bytes = try bank.bytes(.soundFont2)
        for index in bytes.count - 400..<bytes.count { bytes[index] = 0xEE }
        return bytes
    }

    /// Renders a song in an archive and the same on disk over FluidR3_GM: no warning, and the same sound.
    static func expectSameSound(_ sandbox: Sandbox, archived: String, asOnDisk onDisk: String) throws {
        let reference = try render(sandbox, onDisk, [fluidR3], output: "disk.wav")
        let candidate = try render(sandbox, archived, [fluidR3], output: "archived.wav")
        #expect(candidate.stderr.isEmpty, "no warning: \(candidate.stderr)")
        let comparison = SoundComparison(candidate: candidate.audio, reference: reference.audio, sampleRate: 44_100)
        #expect(comparison.mismatches().isEmpty, "\(comparison.mismatches())")
    }

    /// Renders `input` with each of `soundFonts` as a `--soundfont` (an item starting with `--` is
    /// passed as the option it is), and reads the audio back.
    static func render(_ sandbox: Sandbox, _ input: String, _ soundFonts: [String], output: String) throws -> (audio: [Float], stderr: String) {
        let options = soundFonts.flatMap { $0.hasPrefix("--") ? [$0] : ["--soundfont", $0] }
        let result = try sandbox.run(["render", input, "-o", output, "--tail", "0"] + options)
        #expect(result.succeeded, "\(result)")
        return (try AudioFileReader(path: FilePath(sandbox.path(output))).readAll(), result.stderr)
    }

    @Test(
        "an RMID file renders with its own bank over the stack, at its bank offset, as the bank stacked by hand plays the song with the offset taken off",
        arguments: cases)
    func rendersWithItsOwnBank(_ testCase: Case) throws {
        try #require(FileManager.default.fileExists(atPath: Self.fluidR3), "\(Self.fluidR3) is missing: run `make deps`")
        let sandbox = try Sandbox()
        let bankBytes = try Self.bank.bytes(testCase.format)
        let song = Self.song(melodyBank: UInt8(testCase.offset))
        try sandbox.write("song.rmi", RMIDWriter(bankOffset: testCase.writtenOffset).encode(song: song, soundBank: bankBytes))
        let embedded = try Self.render(sandbox, "song.rmi", [Self.fluidR3], output: "embedded.wav")
        #expect(embedded.stderr.isEmpty, "no warning: \(embedded.stderr)")

        // The reference: the bank stacked over FluidR3_GM by hand, the song selecting its bank 0.
        try sandbox.write("reference.mid", Self.song(melodyBank: 0))
        try Self.bank.write(testCase.format, to: sandbox.path("bank.\(testCase.format.fileExtension)"))
        // --no-sidecar: bank.* is the folder's only bank, which these plain songs would hear.
        let reference = try Self.render(
            sandbox, "reference.mid", ["bank.\(testCase.format.fileExtension)", Self.fluidR3, "--no-sidecar"], output: "reference.wav")
        let comparison = SoundComparison(candidate: embedded.audio, reference: reference.audio, sampleRate: 44_100)
        #expect(comparison.mismatches().isEmpty, "\(comparison.mismatches())")

        // The wrong rendering fails: the same song on FluidR3_GM alone (its bank ignored).
        try sandbox.write("plain.mid", song)
        let plain = try Self.render(sandbox, "plain.mid", [Self.fluidR3, "--no-sidecar"], output: "plain.wav")
        let wrong = SoundComparison(candidate: plain.audio, reference: reference.audio, sampleRate: 44_100)
        #expect(!wrong.mismatches().isEmpty, "FluidR3_GM alone passes for the bank: \(wrong)")
    }

    /// RMID files come in ZIPs: one read from an archive plays its own bank as the file on disk
    /// does (its bank was left out, "not a directory"), and `info` names it.
    @Test("an RMID file in a ZIP renders with its own bank, as the file on disk does; info shows the bank", arguments: [cases[1], cases[4]])
    func inAnArchive(_ testCase: Case) throws {
        try #require(FileManager.default.fileExists(atPath: Self.fluidR3), "\(Self.fluidR3) is missing: run `make deps`")
        let sandbox = try Sandbox()
        let rmid = RMIDWriter(bankOffset: testCase.writtenOffset).encode(
            song: Self.song(melodyBank: UInt8(testCase.offset)), soundBank: try Self.bank.bytes(testCase.format))
        try sandbox.write("song.rmi", rmid)
        var zip = ZIPWriter()
        zip.add(ZIPWriter.Member(name: Array("Songs/song.rmi".utf8), data: rmid))
        try sandbox.write("songs.zip", zip.encode())
        try Self.expectSameSound(sandbox, archived: "songs.zip/Songs/song.rmi", asOnDisk: "song.rmi")
        let info = try sandbox.run(["info", "songs.zip/Songs/song.rmi"])
        #expect(info.stdoutLines.contains { $0.contains("Sound bank") && $0.contains("embedded") && $0.hasSuffix("(the file's own)") }, "\(info)")
        // From standard input it is not heard (README), and info says so.
        let piped = try ShellPipeline.run("\"$SMFPLAY\" info - < song.rmi", in: sandbox)
        #expect(
            piped.stdoutLines.contains {
                $0.contains("Sound bank") && $0.hasSuffix("(the file's own; not used: a song from standard input plays without it)")
            }, "\(piped)")
    }

    @Test("an RMID file whose bank is damaged renders with the stack, and says its bank is not used")
    func damagedBankRendersWithTheStack() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fluidR3), "\(Self.fluidR3) is missing: run `make deps`")
        let sandbox = try Sandbox()
        let song = Self.song(melodyBank: 1)
        try sandbox.write("song.rmi", RMIDWriter().encode(song: song, soundBank: Self.damagedBank()))
        let damaged = try Self.render(sandbox, "song.rmi", [Self.fluidR3], output: "damaged.wav")
        #expect(damaged.stderr.contains("song.rmi's embedded SoundFont is not used, the song plays without it"), "\(damaged.stderr)")
        try sandbox.write("plain.mid", song)
        let plain = try Self.render(sandbox, "plain.mid", [Self.fluidR3], output: "plain.wav")
        let comparison = SoundComparison(candidate: damaged.audio, reference: plain.audio, sampleRate: 44_100)
        #expect(comparison.mismatches().isEmpty, "\(comparison.mismatches())")
    }
}
