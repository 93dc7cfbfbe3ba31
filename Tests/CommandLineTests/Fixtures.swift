import AudioOutput
import Foundation
import SMF
import SystemPackage
import Testing

/// The files the tests give smfplay: the demo library, small songs made here, broken files, and
/// the SoundFont that keeps renders fast.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// `Examples/Library`.
    static let library = packageRoot + "/Examples/Library"

    /// Debian's timgm6mb-soundfont: 6 MB, loads and renders fast.
    static let soundFont = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    /// The options every render test passes unless it tests them: the small SoundFont, and no tail.
    static let fast = ["--soundfont", soundFont, "--tail", "0"]

    /// Fails the test, with what to install, when the SoundFont is not there.
    static func requireSoundFont() throws {
        try #require(
            FileManager.default.isReadableFile(atPath: soundFont),
            "\(soundFont) is missing: install Debian's timgm6mb-soundfont (make deps)")
    }

    /// A format 1 song of `beats` quarter notes at 120 bpm (half a second each), with a title.
    static func song(beats: Int = 3, title: String = "Test song") -> [UInt8] {
        var conductor = Track()
        conductor.append(.meta(.text(.trackName, Array(title.utf8))), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(
            .meta(.timeSignature(numerator: 4, denominatorPower: 2, clocksPerMetronomeClick: 24, thirtySecondNotesPerQuarter: 8)), atTick: 0)
        conductor.append(.meta(.endOfTrack), atTick: 0)
        var piano = Track()
        piano.append(.programChange(channel: 0, program: 0), atTick: 0)
        let pitches: [UInt8] = [60, 64, 67, 72]
        for beat in 0..<beats {
            let tick = UInt32(beat * 480)
            piano.append(.noteOn(channel: 0, note: pitches[beat % pitches.count], velocity: 96), atTick: tick)
            piano.append(.noteOff(channel: 0, note: pitches[beat % pitches.count], velocity: 0), atTick: tick + 400)
        }
        piano.append(.meta(.endOfTrack), atTick: UInt32(beats * 480))
        return SMFWriter().encode(
            MIDIFile(
                format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480),
                tracks: [conductor, piano]))
    }

    /// A long song that renders quickly: one short note every 4 seconds for `seconds`.
    static func sparseSong(seconds: Int) -> [UInt8] {
        var track = Track()
        track.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        var tick: UInt32 = 0
        while tick < UInt32(seconds * 960) {
            track.append(.noteOn(channel: 0, note: 60, velocity: 80), atTick: tick)
            track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: tick + 120)
            tick += 8 * 480
        }
        track.append(.meta(.endOfTrack), atTick: UInt32(seconds * 960))
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    /// Two complete tracks; the second (at byte 43) holds a note-on cut after its note number:
    /// the reader's error is "truncated event at byte 43 in track 2".
    static let truncatedEvent: [UInt8] = {
        let header: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, 2, 0x01, 0xE0]
        let first: [UInt8] = [0x00, 0x90, 60, 100, 0x83, 0x60, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]
        let second: [UInt8] = [0x00, 0x90, 60]
        return header + chunk("MTrk", first) + chunk("MTrk", second)
    }()

    static let truncatedEventMessage = "truncated event at byte 43 in track 2"

    /// A playable file with one thing wrong that the lenient reader accepts: no End of Track.
    static let missingEndOfTrack: [UInt8] = {
        let header: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0]
        return header + chunk("MTrk", [0x00, 0x90, 60, 100, 0x83, 0x60, 0x80, 60, 0])
    }()

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let length = UInt32(body.count)
        return Array(type.utf8) + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }

    /// Bytes that are nothing in particular, the same on every run.
    static func noise(count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }
}

/// What a rendered file holds, as the AudioOutput module reads it back.
struct AudioFacts: Equatable, CustomStringConvertible {
    var format: AudioFileFormat?
    var encoding: SampleEncoding?
    var sampleRate: Int
    var channels: Int
    var frameCount: Int

    init(path: String) throws {
        let reader = try AudioFileReader(path: FilePath(path))
        format = reader.format
        encoding = reader.encoding
        sampleRate = reader.sampleRate
        channels = reader.channels
        frameCount = reader.frameCount
    }

    var seconds: Double { Double(frameCount) / Double(sampleRate) }

    var description: String {
        "\(format.map(\.displayName) ?? "unknown format"), \(encoding.map(\.description) ?? "no sample encoding"), \(sampleRate) Hz, \(channels) channels, \(frameCount) frames"
    }
}

extension String {
    /// Whether the text holds anything only a terminal should get: a carriage return, or an
    /// escape sequence.
    var hasTerminalControls: Bool {
        unicodeScalars.contains { $0 == "\r" || $0 == "\u{1B}" }
    }
}
