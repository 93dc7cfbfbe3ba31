import AudioOutput
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

/// `smfplay render --stems`: a file per channel that sounds, in a folder named after the song,
/// judged by sound: the stems sum to the unlimited mix, and each holds its channel alone.
@Suite("smfplay render --stems")
struct StemRenderTests {
    /// Two seconds at 120 bpm: a piano on channel 1, strings on 2, a bass on 4 and drums on 10 of
    /// the first port, and a violin on channel 1 of the second; channel 3 selects a program and a
    /// volume but plays no note. A GM master volume message (75 %) scales every channel. Reverb and
    /// chorus sends differ from channel to channel, so that each stem carries effects of its own.
    static let band: [UInt8] = {
        var conductor = Track()
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(.systemExclusive([0x7F, 0x7F, 0x04, 0x01, 0x00, 0x60, 0xF7]), atTick: 0)
        conductor.append(.meta(.endOfTrack), atTick: 0)
        let parts: [(port: UInt8, channel: UInt8, program: UInt8, keys: [UInt8])] = [
            (0, 0, 0, [60, 64, 67]), (0, 1, 48, [55, 62]), (0, 3, 32, [36]), (0, 9, 0, [36, 38, 42]), (1, 0, 40, [76]),
        ]
        var tracks = parts.enumerated().map { index, part in
            var track = Track()
            track.append(.meta(.port(part.port)), atTick: 0)
            track.append(.programChange(channel: part.channel, program: part.program), atTick: 0)
            track.append(.controlChange(channel: part.channel, controller: 91, value: UInt8(20 * index + 20)), atTick: 0)
            track.append(.controlChange(channel: part.channel, controller: 93, value: UInt8(100 - 20 * index)), atTick: 0)
            for beat in 0..<4 {
                let tick = UInt32(beat * 480)
                for key in part.keys { track.append(.noteOn(channel: part.channel, note: key + UInt8(beat), velocity: 100), atTick: tick) }
                for key in part.keys { track.append(.noteOff(channel: part.channel, note: key + UInt8(beat), velocity: 0), atTick: tick + 400) }
            }
            track.append(.meta(.endOfTrack), atTick: 1920)
            return track
        }
        var silent = Track()
        silent.append(.programChange(channel: 2, program: 56), atTick: 0)
        silent.append(.controlChange(channel: 2, controller: 7, value: 100), atTick: 0)
        silent.append(.meta(.endOfTrack), atTick: 1920)
        tracks.append(silent)
        return SMFWriter().encode(
            MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [conductor] + tracks))
    }()

    /// The band's stems, as `info` names its channels (the second port's with a B).
    static let bandStems = [
        "01 Acoustic Grand Piano.wav", "02 String Ensemble 1.wav", "04 Acoustic Bass.wav", "10 Percussion.wav", "B01 Violin.wav", "Mix.wav",
    ]

    /// Float samples, reverb and chorus on, the reverb's tail cut at a second; one synthesizer, as
    /// stems are rendered (a song split across synthesizers sounds as one does, but is not the
    /// same to the sample: measured −37 dB apart on the fade test's song).
    static let options = ["--bits", "32f", "--soundfont", Fixtures.soundFont, "--tail", "1", "--jobs", "1"]

    /// The energy of `candidate` − `reference` against `reference`'s, in dB: −60 is a difference a
    /// thousandth of the signal's amplitude. They must be as long.
    static func residualDecibels(_ candidate: [Float], _ reference: [Float]) -> Double {
        #expect(candidate.count == reference.count, "\(candidate.count) and \(reference.count) samples")
        var difference = 0.0
        var energy = 0.0
        for (a, b) in zip(candidate, reference) {
            difference += Double(a - b) * Double(a - b)
            energy += Double(b) * Double(b)
        }
        return 10 * log10(difference / energy)
    }

    static func samples(_ sandbox: Sandbox, _ path: String) throws -> [Float] {
        try AudioFileReader(path: FilePath(sandbox.path(path))).readAll()
    }

    /// The band rendered as stems into `Stems/band`, and without them, unlimited, into `mix.wav`, each with `extra`.
    static func renderBand(_ extra: [String] = []) throws -> Sandbox {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("band.mid", band)
        let stems = try sandbox.run(["render", "band.mid", "--stems", "-o", "Stems"] + extra + options)
        #expect(stems.succeeded, "\(stems)")
        #expect(stems.stdoutLines.first?.hasPrefix("Stems/band (0:0") == true, "\(stems)")
        let mix = try sandbox.run(["render", "band.mid", "-o", "mix.wav", "--no-limiter"] + extra + options)
        #expect(mix.succeeded, "\(mix)")
        return sandbox
    }

    @Test("the stems of the channels that play notes, named as info names them, sum to the unlimited mix within −60 dB")
    func stemsSumToTheMix() throws {
        let sandbox = try Self.renderBand()
        #expect(sandbox.files(under: "Stems") == Self.bandStems.map { "band/" + $0 }, "no file for channel 3, which plays no note")
        let stems = try Self.bandStems.dropLast().map { try Self.samples(sandbox, "Stems/band/" + $0) }
        let mix = try Self.samples(sandbox, "mix.wav")
        for (name, stem) in zip(Self.bandStems, stems) {
            #expect(stem.count == mix.count, "\(name): \(stem.count) samples, the mix \(mix.count)")
        }
        let sum = stems.reduce(into: [Float](repeating: 0, count: mix.count)) { sum, stem in
            for index in sum.indices where index < stem.count { sum[index] += stem[index] }
        }
        let residual = Self.residualDecibels(sum, mix)
        #expect(residual < -60, "the stems sum to the mix within \(residual) dB")
        // Without the last stem the sum is far from the mix (measured −15 dB):
        // the comparison can fail.
        let short = zip(sum, stems.last!).map { $0 - $1 }
        #expect(Self.residualDecibels(short, mix) > -20)
        // The song's mix beside them is the limited render's (the band is too quiet to be limited).
        #expect(Self.residualDecibels(try Self.samples(sandbox, "Stems/band/Mix.wav"), mix) < -60)
    }

    @Test("a channel's stem is that channel alone: a --solo render of it, and not of another")
    func aStemIsItsChannelAlone() throws {
        let sandbox = try Self.renderBand()
        let solo = try sandbox.run(["render", "band.mid", "-o", "solo.wav", "--solo", "2", "--no-limiter"] + Self.options)
        #expect(solo.succeeded, "\(solo)")
        let soloed = try Self.samples(sandbox, "solo.wav")
        let strings = Self.residualDecibels(try Self.samples(sandbox, "Stems/band/02 String Ensemble 1.wav"), soloed)
        #expect(strings < -60, "channel 2's stem is \(strings) dB from channel 2 alone")
        let piano = Self.residualDecibels(try Self.samples(sandbox, "Stems/band/01 Acoustic Grand Piano.wav"), soloed)
        // Two channels apart differ by about the energy of both (measured +0.2 dB).
        #expect(piano > -3, "channel 1's stem is \(piano) dB from channel 2 alone")
    }

    @Test("with --solo 2, channel 2 alone sounds: its stem and the mix are all there is")
    func soloedStems() throws {
        let sandbox = try Self.renderBand(["--solo", "2"])
        #expect(sandbox.files(under: "Stems") == ["band/02 String Ensemble 1.wav", "band/Mix.wav"])
        let residual = Self.residualDecibels(try Self.samples(sandbox, "Stems/band/02 String Ensemble 1.wav"), try Self.samples(sandbox, "mix.wav"))
        #expect(residual < -60, "\(residual) dB")
    }

    @Test("a loop played twice with a fade: the stems fade with the mix and still sum to it")
    func fadedLoop() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        var track = Track()
        track.append(.programChange(channel: 0, program: 19), atTick: 0)
        track.append(.controlChange(channel: 0, controller: 111, value: 0), atTick: 0)
        for beat in 0..<4 {
            let notes: [(channel: UInt8, key: UInt8)] = [(0, UInt8(60 + beat)), (9, 38)]
            for note in notes { track.append(.noteOn(channel: note.channel, note: note.key, velocity: 100), atTick: UInt32(beat * 480)) }
            for note in notes { track.append(.noteOff(channel: note.channel, note: note.key, velocity: 0), atTick: UInt32(beat * 480 + 400)) }
        }
        track.append(.meta(.endOfTrack), atTick: 1920)
        try sandbox.write(
            "loop.mid", SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
        let looping = ["--loops", "2", "--fade", "1"]
        let stems = try sandbox.run(["render", "loop.mid", "--stems"] + looping + Self.options)
        let mix = try sandbox.run(["render", "loop.mid", "-o", "mix.wav", "--no-limiter"] + looping + Self.options)
        #expect(stems.succeeded && mix.succeeded, "\(stems)\n\(mix)")
        #expect(sandbox.files(under: "loop") == ["01 Church Organ.wav", "10 Percussion.wav", "Mix.wav"])
        let organ = try Self.samples(sandbox, "loop/01 Church Organ.wav")
        let drums = try Self.samples(sandbox, "loop/10 Percussion.wav")
        let reference = try Self.samples(sandbox, "mix.wav")
        #expect(reference.count > 2 * 44_100 * 5, "two passes of 2 s and a fade of 1 s: \(reference.count / 2) frames")
        let residual = Self.residualDecibels(zip(organ, drums).map { $0 + $1 }, reference)
        #expect(residual < -60, "\(residual) dB")
    }

    @Test("a folder: each song's stems in a folder of its own under -o, mirroring the tree; a second run skips them")
    func folderOfSongs() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("in/one.mid", Fixtures.song())
        try sandbox.write("in/Album/two.mid", Self.band)
        let first = try sandbox.run(["render", "in", "-o", "out", "--stems", "--format", "flac", "--jobs", "2"] + Fixtures.fast)
        #expect(first.succeeded, "\(first)")
        #expect(
            sandbox.files(under: "out")
                == [
                    "Album/two/01 Acoustic Grand Piano.flac", "Album/two/02 String Ensemble 1.flac", "Album/two/04 Acoustic Bass.flac",
                    "Album/two/10 Percussion.flac", "Album/two/B01 Violin.flac", "Album/two/Mix.flac", "one/01 Acoustic Grand Piano.flac",
                    "one/Mix.flac",
                ], "\(first)")
        let second = try sandbox.run(["render", "in", "-o", "out", "--stems", "--format", "flac"] + Fixtures.fast)
        #expect(second.succeeded && second.stdout.contains("2 up to date"), "\(second)")
    }

    @Test("a file where the song's folder must go: one error naming it, status 1, nothing written")
    func folderInTheWay() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.write("out/song", [0x41])
        let result = try sandbox.run(["render", "song.mid", "--stems", "-o", "out"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("out/song is a file, not a folder"), "\(result)")
        #expect(sandbox.files(under: "out") == ["song"])
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let refusals = [
        Refusal(arguments: ["song.mid", "--stems", "-o", "-"], message: "--stems writes a folder of files for each song, which -o - cannot stream"),
        Refusal(arguments: ["-", "--stems", "-o", "out"], message: "--stems names each song's folder after its file"),
        Refusal(
            arguments: ["song.mid", "--stems", "-o", "stems/song.wav"],
            message: "--stems writes a folder of files for each song, its mix among them: -o names a folder to put them in, not stems/song.wav"),
        Refusal(arguments: ["song.mid", "--stems", "--normalize"], message: "--stems writes the stems at the level they sum to the mix"),
    ]

    @Test("what stems cannot do is a usage error naming --stems, status 64, before any work", arguments: refusals)
    func refused(_ refusal: Refusal) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(["render"] + refusal.arguments + Fixtures.fast)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("Error: " + refusal.message) == true, "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
        #expect(sandbox.files() == ["song.mid"], "something was written")
    }
}
