import Foundation
import SMF
import TestSupport
import Testing

/// Recomposer songs (RCP and G36) through the commands: `info` says what they are; `render` plays
/// them as the same music written as a Standard MIDI File by the project's writer, to the sample;
/// and TiMidity++, which reads Recomposer files itself, hears the same notes at the same times.
struct RecomposerCommandTests {
    typealias Command = RecomposerWriter.Command

    /// An organ line (a program, a volume, a loop played twice, a tempo change to 150%, the first
    /// measure played again by the same-measure command) over a rhythm track on channel 10, after
    /// an empty track.
    static func song(_ version: RecomposerWriter.Version) -> [UInt8] {
        var writer = RecomposerWriter(version)
        writer.title = Array("Organ and drums".utf8)
        let organ: [Command] = [
            .program(19), .controlChange(7, 100), .note(60, step: 48, gate: 40), .note(64, step: 48, gate: 40), .measureEnd,
            .loopStart, .note(67, step: 24, gate: 20, velocity: 90), .note(65, step: 24, gate: 20, velocity: 80), .loopEnd(2), .measureEnd,
            .tempo(scale: 96), .sameMeasure(measure: 0, event: 2), .note(72, step: 96, gate: 90), .trackEnd,
        ]
        let drums: [Command] = [36, 38, 36, 38].map { Command.note($0, step: 48, gate: 10) } + [.trackEnd]
        // Track 1 is empty, on no channel, as in many songs; TiMidity++ skips it (see timidityHearsTheSame).
        writer.tracks = [
            RecomposerWriter.Track(channel: 0xFF, [.trackEnd]), RecomposerWriter.Track(name: Array("Organ".utf8), organ),
            RecomposerWriter.Track(channel: 9, key: 0x80, rhythmMode: 0x80, drums),
        ]
        return writer.bytes
    }

    /// The same music as a format 1 MIDI file, written out by hand.
    static var reference: [UInt8] {
        var conductor = Track()
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        // 120 bpm × 96/64.
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 333_333)), atTick: 192)
        conductor.append(.meta(.endOfTrack), atTick: 384)
        var organ = Track()
        organ.append(.programChange(channel: 0, program: 19), atTick: 0)
        organ.append(.controlChange(channel: 0, controller: 7, value: 100), atTick: 0)
        let notes: [(tick: UInt32, key: UInt8, gate: UInt32, velocity: UInt8)] = [
            (0, 60, 40, 100), (48, 64, 40, 100), (96, 67, 20, 90), (120, 65, 20, 80), (144, 67, 20, 90), (168, 65, 20, 80), (192, 60, 40, 100),
            (240, 64, 40, 100), (288, 72, 90, 100),
        ]
        for note in notes {
            organ.append(.noteOn(channel: 0, note: note.key, velocity: note.velocity), atTick: note.tick)
            organ.append(.noteOff(channel: 0, note: note.key, velocity: 0), atTick: note.tick + note.gate)
        }
        organ.append(.meta(.endOfTrack), atTick: 384)
        var drums = Track()
        for (index, key) in [UInt8(36), 38, 36, 38].enumerated() {
            drums.append(.noteOn(channel: 9, note: key, velocity: 100), atTick: UInt32(index * 48))
            drums.append(.noteOff(channel: 9, note: key, velocity: 0), atTick: UInt32(index * 48 + 10))
        }
        drums.append(.meta(.endOfTrack), atTick: 192)
        return SMFWriter().encode(
            MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 48), tracks: [conductor, organ, drums]))
    }

    @Test("info calls an RCP and a G36 song what they are; render plays each as the same music written as MIDI does, to the sample")
    func infoAndRender() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("reference.mid", Self.reference)
        for (name, kind) in [("song.rcp", "RCP"), ("song.g36", "G36")] {
            try sandbox.write(name, Self.song(name.hasSuffix("rcp") ? .rcp : .g36))
            let shown = try sandbox.run(["info", name])
            #expect(shown.succeeded && shown.stdout.contains("Format     Recomposer (\(kind)), 4 tracks, 48 ticks per quarter note"), "\(shown)")
            #expect(shown.stdout.contains("Title      Organ and drums") && shown.stdout.contains("Duration   0:03.3"), "\(shown.stdout)")
            let (song, reference) = try GameFormatCommandTests.rendered(sandbox, name, "reference.mid")
            #expect(song.count > 44_100 && song == reference, "\(name) renders \(StemRenderTests.residualDecibels(song, reference)) dB from its MIDI")
        }
    }

    static let timidity = "/usr/bin/timidity"

    /// Each note's start in seconds, channel, key and velocity, in time order; and when the last ends.
    static func notes(_ file: MIDIFile) -> (starts: [(seconds: Double, channel: UInt8, key: UInt8, velocity: UInt8)], end: Double) {
        let song = Song(file: file)
        var starts: [(seconds: Double, channel: UInt8, key: UInt8, velocity: UInt8)] = []
        var end = 0.0
        song.forEachMergedEvent { timed in
            switch song.message(of: timed) {
            case .noteOn(let channel, let key, let velocity) where velocity > 0: starts.append((timed.seconds, channel, key, velocity))
            case .noteOn, .noteOff: end = max(end, timed.seconds)
            default: break
            }
        }
        return (starts.sorted { ($0.seconds, $0.channel, $0.key) < ($1.seconds, $1.channel, $1.key) }, end)
    }

    @Test(
        "TiMidity++ reads the written RCP and G36 songs as smfplay does: the same notes (channel, key, velocity), each within 10 ms, the last ending within 50 ms"
    )
    func timidityHearsTheSame() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.timidity), "timidity is missing: install Debian's timidity (make deps)")
        let sandbox = try Sandbox()
        for name in ["song.rcp", "song.g36"] {
            let bytes = Self.song(name.hasSuffix("rcp") ? .rcp : .g36)
            try sandbox.write(name, bytes)
            // TiMidity++ writes what it reads as a MIDI file (-Om): its own reading of the song. (Its
            // writer, midi_a.c, writes the time signature that its RCP reader sends with track 1
            // as a meta event of 4 bytes that holds 2, which no reader can read past; the song's
            // track 1 is on no channel, which TiMidity++ skips before that.)
            let converted = try TestSupport.Command(
                URL(fileURLWithPath: Self.timidity), arguments: ["-Om", "-o", name + ".mid", name],
                workingDirectory: URL(fileURLWithPath: sandbox.path("."))
            ).run()
            try #require(converted.succeeded && sandbox.exists(name + ".mid"), "TiMidity++ did not read \(name): \(converted)")
            let theirs = Self.notes(try SMFReader().read(Array(try sandbox.contents(name + ".mid"))).file)
            let ours = Self.notes(try SMFReader(policy: .strict).read(bytes).file)
            #expect(
                ours.starts.count == 13 && theirs.starts.count == ours.starts.count,
                "\(name): \(theirs.starts.count) notes, \(ours.starts.count) read")
            for (their, our) in zip(theirs.starts, ours.starts) {
                #expect(
                    their.channel == our.channel && their.key == our.key && their.velocity == our.velocity && abs(their.seconds - our.seconds) < 0.01,
                    "\(name): TiMidity++ plays \(their), smfplay \(our)")
            }
            #expect(
                abs(ours.end - (2 + 3.875 * 0.333_333)) < 1e-9 && abs(theirs.end - ours.end) < 0.05,
                "\(name): the last note ends at \(theirs.end) s in TiMidity++, \(ours.end) s")
        }
    }
}
