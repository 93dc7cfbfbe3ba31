import Foundation
import SMF
import TestSupport
import Testing

/// Game music formats (Doom's MUS, Miles' XMI) through the commands: `info` says what they are;
/// `render` plays them as the same music written as a Standard MIDI File by the project's writer,
/// to the sample.
struct GameFormatCommandTests {
    /// A rising organ line over a kick drum: MUS channel 0, and channel 15 (the drums).
    static let score: [UInt8] = {
        var score: [UInt8] = [0x40, 0x00, 19]
        for (index, note) in [60, 64, 67, 72].enumerated() {
            score += [0x10, 0x80 | UInt8(note), 100]
            // A drum with the first, else a measure's end; either way 70 ticks (half a second) then.
            score += index == 0 ? [0x9F, 36, 70] : [0xD0, 70]
            score += [0x80, UInt8(note), 70]
        }
        return [0x4D, 0x55, 0x53, 0x1A, UInt8(score.count + 1), 0, 16, 0, 2, 0, 0, 0, 0, 0, 0, 0] + score + [0x60]
    }()

    static var reference: [UInt8] {
        var track = Track()
        track.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        track.append(.programChange(channel: 0, program: 19), atTick: 0)
        for (index, note) in [UInt8(60), 64, 67, 72].enumerated() {
            let tick = UInt32(index * 140)
            track.append(.noteOn(channel: 0, note: note, velocity: 100), atTick: tick)
            if index == 0 { track.append(.noteOn(channel: 9, note: 36, velocity: 127), atTick: tick) }
            track.append(.noteOff(channel: 0, note: note, velocity: 0), atTick: tick + 70)
        }
        track.append(.meta(.endOfTrack), atTick: 560)
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 70), tracks: [track]))
    }

    /// `file` and `reference` rendered alike (32-bit float, the test SoundFont, a second's tail, one
    /// core), their samples.
    static func rendered(_ sandbox: Sandbox, _ file: String, _ reference: String) throws -> (file: [Float], reference: [Float]) {
        let options = ["--bits", "32f", "--soundfont", Fixtures.soundFont, "--tail", "1", "--jobs", "1"]
        for name in [file, reference] {
            let rendered = try sandbox.run(["render", name, "-o", name + ".wav"] + options)
            try #require(rendered.succeeded, "\(rendered)")
        }
        return (try StemRenderTests.samples(sandbox, file + ".wav"), try StemRenderTests.samples(sandbox, reference + ".wav"))
    }

    @Test("info calls a MUS score what it is; render plays it as the same music written as MIDI does, to the sample")
    func infoAndRender() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("e1m1.mus", Self.score)
        try sandbox.write("reference.mid", Self.reference)
        let shown = try sandbox.run(["info", "e1m1.mus"])
        #expect(shown.succeeded && shown.stdout.contains("Format     MUS (Doom), 1 track, 70 ticks per quarter note"), "\(shown)")
        #expect(shown.stdout.contains("Duration   0:04.0"), "\(shown.stdout)")
        let (mus, reference) = try Self.rendered(sandbox, "e1m1.mus", "reference.mid")
        #expect(mus.count > 44_100 && mus == reference, "the score renders \(StemRenderTests.residualDecibels(mus, reference)) dB from its MIDI")
    }

    /// An organ chord in XMI: C for 2 s, E from 1 s for half a second (120 ticks a second).
    static let xmi: [UInt8] = {
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(body.count)
            return Array(id.utf8) + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + body
                + (body.count % 2 == 1 ? [0] : [])
        }
        let events: [UInt8] = [0xC0, 19, 0x90, 60, 100, 0x81, 0x70, 0x78, 0x90, 64, 90, 0x3C, 0x78, 0xFF, 0x2F, 0]
        return chunk("FORM", Array("XDIR".utf8) + chunk("INFO", [1, 0]))
            + chunk("CAT ", Array("XMID".utf8) + chunk("FORM", Array("XMID".utf8) + chunk("EVNT", events)))
    }()

    static func xmiReference(program: UInt8 = 19) -> [UInt8] {
        var track = Track()
        track.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        track.append(.programChange(channel: 0, program: program), atTick: 0)
        track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
        track.append(.noteOn(channel: 0, note: 64, velocity: 90), atTick: 120)
        track.append(.noteOff(channel: 0, note: 64, velocity: 0), atTick: 180)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 240)
        track.append(.meta(.endOfTrack), atTick: 240)
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 60), tracks: [track]))
    }

    @Test("info calls an XMI song what it is; render plays it as the same music written as MIDI does, to the sample")
    func xmiInfoAndRender() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("intro.xmi", Self.xmi)
        try sandbox.write("reference.mid", Self.xmiReference())
        let shown = try sandbox.run(["info", "intro.xmi"])
        #expect(shown.succeeded && shown.stdout.contains("Format     XMI (Miles), 1 track, 60 ticks per quarter note"), "\(shown)")
        let (song, reference) = try Self.rendered(sandbox, "intro.xmi", "reference.mid")
        #expect(song.count > 44_100 && song == reference, "the song renders \(StemRenderTests.residualDecibels(song, reference)) dB from its MIDI")
    }

    /// Three songs in one XMI file: the chord's organ, then the same notes on programs 0 and 40.
    static let threeSongs: [UInt8] = {
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(body.count)
            return Array(id.utf8) + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + body
                + (body.count % 2 == 1 ? [0] : [])
        }
        let songs = [UInt8(19), 0, 40].map { program -> [UInt8] in
            let events: [UInt8] = [0xC0, program, 0x90, 60, 100, 0x81, 0x70, 0x78, 0x90, 64, 90, 0x3C, 0x78, 0xFF, 0x2F, 0]
            return chunk("FORM", Array("XMID".utf8) + chunk("EVNT", events))
        }
        return chunk("FORM", Array("XDIR".utf8) + chunk("INFO", [3, 0])) + chunk("CAT ", Array("XMID".utf8) + Array(songs.joined()))
    }()

    @Test(
        "an XMI file of three songs is a folder of three (music.xmi/1 to /3): info shows each, render writes each, the second as its MIDI to the sample; a fourth is refused naming the count"
    )
    func xmiSongsAreEntries() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("music.xmi", Self.threeSongs)
        try sandbox.write("second.mid", Self.xmiReference(program: 0))
        let shown = try sandbox.run(["info", "music.xmi"])
        #expect(shown.succeeded && shown.stderr.isEmpty, "\(shown)")
        #expect(shown.stdoutLines.filter { $0.hasPrefix("music.xmi") } == ["music.xmi/1", "music.xmi/2", "music.xmi/3"], "\(shown.stdout)")
        let rendered = try sandbox.run([
            "render", "music.xmi", "-o", "out/", "--bits", "32f", "--soundfont", Fixtures.soundFont, "--tail", "1", "--jobs", "1",
        ])
        #expect(rendered.succeeded && rendered.stderr.isEmpty, "\(rendered)")
        #expect(sandbox.files(under: "out") == ["1.wav", "2.wav", "3.wav"])
        let (_, second) = try Self.rendered(sandbox, "second.mid", "second.mid")
        let song = try StemRenderTests.samples(sandbox, "out/2.wav")
        #expect(song.count > 44_100 && song == second, "song 2 renders \(StemRenderTests.residualDecibels(song, second)) dB from its MIDI")
        let fourth = try sandbox.run(["info", "music.xmi/4"])
        #expect(fourth.status == 1 && fourth.stderr == "smfplay: music.xmi/4: the XMI file holds 3 songs, no song 4\n", "\(fourth)")
    }

    /// The songs of an XMI file of several are files of the library: indexed (found by the file's
    /// name, each with its length; they were counted and never stored), and measured each for
    /// itself by `index --loudness` (each failed: "could not be read again").
    @Test("the songs of an XMI file of three are indexed and searched, and index --loudness measures each")
    func xmiSongsAreIndexedAndMeasured() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("lib/Game/music.xmi", Self.threeSongs)
        let indexed = try sandbox.run(["index", "--library", "lib"])
        #expect(indexed.succeeded, "\(indexed)")
        #expect(indexed.stdout.contains("3 MIDI files indexed (3 added,"), "\(indexed)")
        let again = try sandbox.run(["index", "--library", "lib"])
        #expect(again.stdout.contains("3 MIDI files indexed (0 added, 0 changed, 0 removed, 3 unchanged)"), "\(again)")
        let found = try sandbox.run(["search", "music", "--library", "lib", "--longer", "0:01"])
        #expect(found.succeeded && found.stdoutLines.count == 3, "\(found)")
        #expect(["1", "2", "3"].allSatisfy { number in found.stdoutLines.contains { $0.contains("music.xmi/\(number)") } }, "\(found)")
        let measured = try sandbox.run(["index", "--loudness", "--library", "lib", "--soundfont", Fixtures.soundFont])
        #expect(measured.succeeded, "\(measured)")
        #expect(measured.stdout.contains("measured the loudness of 3 songs"), "\(measured)")
    }

    /// The HMP and HMI tests' chord as a MIDI file: a tempo track (100 bpm), then an organ's C from
    /// 0 to 120 ticks and E from 60 to 90, at 60 ticks a quarter note.
    static var chordAt100BPM: [UInt8] {
        var tempo = Track()
        tempo.append(.meta(.tempo(microsecondsPerQuarterNote: 600_000)), atTick: 0)
        tempo.append(.meta(.endOfTrack), atTick: 120)
        var chord = Track()
        chord.append(.programChange(channel: 0, program: 19), atTick: 0)
        chord.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
        chord.append(.noteOn(channel: 0, note: 64, velocity: 90), atTick: 60)
        chord.append(.noteOff(channel: 0, note: 64, velocity: 0), atTick: 90)
        chord.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 120)
        chord.append(.meta(.endOfTrack), atTick: 120)
        return SMFWriter().encode(MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 60), tracks: [tempo, chord]))
    }

    @Test("info calls an HMP file what it is; render plays it as the same music written as MIDI does, to the sample")
    func hmpInfoAndRender() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        var hmp = HMPWriter(beatsPerMinute: 100)
        hmp.tracks = [
            [
                (0, [0xC0, 19]), (0, [0x90, 60, 100]), (30, [0xB0, 111, 0x80]), (30, [0x90, 64, 90]), (30, [0x80, 64, 0]),
                (30, [0x80, 60, 0]), (0, [0xFF, 0x2F, 0]),
            ]
        ]
        try sandbox.write("descent.hmp", hmp.encode())
        try sandbox.write("reference.mid", Self.chordAt100BPM)
        let shown = try sandbox.run(["info", "descent.hmp"])
        #expect(shown.succeeded && shown.stdout.contains("Format     HMP (HMI), 2 tracks, 60 ticks per quarter note"), "\(shown)")
        #expect(shown.stdout.contains("Duration   0:01.2"), "\(shown.stdout)")
        let (song, reference) = try Self.rendered(sandbox, "descent.hmp", "reference.mid")
        #expect(
            song.count > 44_100 && song == reference, "the HMP file renders \(StemRenderTests.residualDecibels(song, reference)) dB from its MIDI")
    }

    @Test("info calls an HMI song what it is; render plays it as the same music written as MIDI does, to the sample")
    func hmiInfoAndRender() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        var hmi = HMIWriter(beatsPerMinute: 100)
        hmi.tracks = [
            [
                (0, [0xC0, 19]), (0, [0x90, 60, 100] + HMIWriter.quantity(120)), (60, [0x90, 64, 90] + HMIWriter.quantity(30)),
                (60, [0xFF, 0x2F, 0]),
            ]
        ]
        try sandbox.write("tune.hmi", hmi.encode())
        try sandbox.write("reference.mid", Self.chordAt100BPM)
        let shown = try sandbox.run(["info", "tune.hmi"])
        #expect(shown.succeeded && shown.stdout.contains("Format     HMI song, 2 tracks, 60 ticks per quarter note"), "\(shown)")
        let (song, reference) = try Self.rendered(sandbox, "tune.hmi", "reference.mid")
        #expect(
            song.count > 44_100 && song == reference, "the HMI song renders \(StemRenderTests.residualDecibels(song, reference)) dB from its MIDI")
    }
}
