import Foundation
import SMF
import Synthesis
import SystemPackage
import TestSupport
import Testing

@testable import Playback

/// The player with songs that bring their own bank (RMID files): the bank is heard, and when a
/// song is split across synthesizers every part plays it.
@Suite struct SongBankPlaybackTests {
    /// The square bank (program 0), written as `square.sf2` in `folder`.
    static let square = TestSoundBank(presets: [.init("Square", program: 0, waveform: .square)])

    static func writeSquareBank(in folder: TemporaryFolder) throws -> FilePath {
        let path = FilePath(folder.file("square.sf2"))
        try Data(square.bytes(.soundFont2)).write(to: URL(fileURLWithPath: path.string))
        return path
    }

    /// `song` written under each of `names` in `folder`.
    static func write(_ song: Song, as names: [String], in folder: TemporaryFolder) throws -> [FilePath] {
        try names.map { name in
            let path = folder.file(name)
            try Data(SMFWriter().encode(song.file)).write(to: URL(fileURLWithPath: path))
            return FilePath(path)
        }
    }

    /// C4 and A4 held together for 2 s on program 0, bank 1 (the embedded bank's 0 at the default
    /// offset): the keys a split shares out between two synthesizers.
    static func chordSong(bank: TestSoundBank) throws -> [UInt8] {
        let song = TestSongs.song { track in
            track.append(.controlChange(channel: 0, controller: 0, value: 1), atTick: 0)
            track.append(.programChange(channel: 0, program: 0), atTick: 0)
            for key: UInt8 in [60, 69] { track.append(.noteOn(channel: 0, note: key, velocity: 100), atTick: 0) }
            for key: UInt8 in [60, 69] { track.append(.noteOff(channel: 0, note: key, velocity: 0), atTick: TestSongs.tick(2)) }
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(2))
        }
        return RMIDWriter().encode(song: SMFWriter().encode(song.file), soundBank: try bank.bytes(.soundFont2))
    }

    @Test(
        "a song with its own bank, split across two synthesizers, plays its bank on both: each key of the chord is the bank's square",
        arguments: [1, 2])
    func splitSongPlaysItsBankOnEveryPart(cores: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("chord.rmi")
        try Data(Self.chordSong(bank: Self.square)).write(to: URL(fileURLWithPath: path))
        let (player, sink) = try SeekHandoverTests.player(playing: [FilePath(path)], split: .always(cores: cores))
        sink.play(player, seconds: 1.5)
        #expect(player.update().cores == cores, "the song did not play on \(cores) synthesizers")
        // 0.37 s from 1 s in: both notes held, in the bank's loop.
        let spectrum = PowerSpectrum(stereo: sink.recorded, sampleRate: SeekHandoverTests.rate, start: 1, size: 16_384)
        for frequency in [261.63, 440.0] {
            let shares = spectrum.harmonicShares(fundamental: frequency, count: 3)
            // A square's second harmonic is absent; TimGM6mb's piano, the stack's, has one.
            #expect(shares[1] < shares[0] / 100, "\(frequency) Hz is not the bank's square: \(shares)")
            #expect(shares[0] > 0.1, "\(frequency) Hz is not heard: \(shares)")
        }
    }

    @Test("a song whose own settings name other SoundFonts (a folder's) plays on them; the next song, without, follows")
    func songSettingsChooseTheSound() throws {
        let folder = try TemporaryFolder()
        let bankPath = try Self.writeSquareBank(in: folder)
        // A4 for a second on program 0, bank 0.
        let song = TestSongs.song { track in
            track.append(.programChange(channel: 0, program: 0), atTick: 0)
            track.append(.noteOn(channel: 0, note: 69, velocity: 100), atTick: 0)
            track.append(.noteOff(channel: 0, note: 69, velocity: 0), atTick: TestSongs.tick(1))
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(1))
        }
        let files = try Self.write(song, as: ["folder.mid", "plain.mid"], in: folder)
        let command = try SeekHandoverTests.synthesizer()
        let own = SongSettings(soundFonts: SoundFontStack([bankPath]), synthesizer: command.configuration)
        let (player, sink) = try SeekHandoverTests.player(playing: files) { path in
            .success(path == files[0] ? own : nil)
        }
        sink.play(player, seconds: 3)
        let first = PowerSpectrum(stereo: sink.recorded, sampleRate: SeekHandoverTests.rate, start: 0.3, size: 16_384).harmonicShares(
            fundamental: 440, count: 2)
        #expect(first[1] < first[0] / 100, "the first song is not the folder's square: \(first)")
        #expect(player.update().place == 1, "the second song did not start")
    }

    @Test("a song's own key shift (a folder's transpose, in play) moves its keys, and the listener's transposition moves them further")
    func songKeyShiftIsUnderTheListeners() throws {
        let folder = try TemporaryFolder()
        let bankPath = try Self.writeSquareBank(in: folder)
        // A4 struck at 0 s and again at 1 s.
        let song = TestSongs.song { track in
            track.append(.programChange(channel: 0, program: 0), atTick: 0)
            for start in [0.0, 1.0] {
                track.append(.noteOn(channel: 0, note: 69, velocity: 100), atTick: TestSongs.tick(start))
                track.append(.noteOff(channel: 0, note: 69, velocity: 0), atTick: TestSongs.tick(start + 0.9))
            }
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(2))
        }
        let path = try Self.write(song, as: ["song.mid"], in: folder)[0]
        var settings = try SeekHandoverTests.synthesizer().configuration
        settings.keyShift = 12
        let own = SongSettings(soundFonts: SoundFontStack([bankPath]), synthesizer: settings)
        let (player, sink) = try SeekHandoverTests.player(playing: [path]) { _ in .success(own) }
        sink.play(player, seconds: 0.5)
        player.performance.transpose = -7
        sink.play(player, seconds: 1.2)
        let first = PowerSpectrum(stereo: sink.recorded, sampleRate: SeekHandoverTests.rate, start: 0.2, size: 8_192).peakFrequency
        let second = PowerSpectrum(stereo: sink.recorded, sampleRate: SeekHandoverTests.rate, start: 1.2, size: 8_192).peakFrequency
        // 12 semitones up: A5; then 12 − 7 = 5 up: D5.
        #expect(abs(first - 880) < 12, "the song's own shift: \(first) Hz")
        #expect(abs(second - 587.33) < 12, "the listener's on top: \(second) Hz")
    }

    @Test("a song whose own settings say shift-jis has its title read so (the session would guess), and a song without its own has none")
    func songTextEncodingIsTheSongs() throws {
        let folder = try TemporaryFolder()
        // 夜想曲 in Shift-JIS: four bytes a Latin-1 or cp1252 reading would take for other letters.
        let title: [UInt8] = [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8]
        let song = TestSongs.song { track in
            track.append(.meta(.text(.trackName, title)), atTick: 0)
            track.append(.noteOn(channel: 0, note: 69, velocity: 100), atTick: 0)
            track.append(.noteOff(channel: 0, note: 69, velocity: 0), atTick: TestSongs.tick(0.5))
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(0.5))
        }
        let files = try Self.write(song, as: ["own.mid", "session.mid"], in: folder)
        let command = try SeekHandoverTests.synthesizer()
        let own = SongSettings(soundFonts: command.soundFonts, synthesizer: command.configuration, textEncoding: .shiftJIS)
        let (player, sink) = try SeekHandoverTests.player(playing: files) { path in .success(path == files[0] ? own : nil) }
        sink.record(frames: 441)
        let first = player.update()
        let decoding = try #require(player.textDecoding(generation: first.start), "the song's own reading is not kept")
        #expect(player.song(generation: first.start)?.file.titleText(decoding: decoding) == "夜想曲")
        sink.play(player, seconds: 1.8)
        let second = player.update()
        #expect(second.place == 1, "the second song did not start")
        #expect(player.textDecoding(generation: second.start) == nil)
    }

    /// A folder file that is wrong, as the command's reader would say it.
    struct BrokenFolderFile: Error, Sendable, CustomStringConvertible {
        var description: String { "/music/Album/.smfplay.toml:2: unknown key 'transpos' (did you mean 'transpose'?)" }
    }

    @Test("a song whose own settings cannot be had is skipped, its problem said with its name, and the next plays")
    func brokenSongSettingsSkipTheSong() throws {
        let folder = try TemporaryFolder()
        let song = TestSongs.song { track in
            track.append(.noteOn(channel: 0, note: 69, velocity: 100), atTick: 0)
            track.append(.noteOff(channel: 0, note: 69, velocity: 0), atTick: TestSongs.tick(0.5))
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(0.5))
        }
        let files = try Self.write(song, as: ["broken.mid", "fine.mid"], in: folder)
        var problems: [String] = []
        let (player, sink) = try SeekHandoverTests.player(
            playing: files, songSettings: { path in path == files[0] ? .failure(SongSettingsProblem(BrokenFolderFile())) : .success(nil) },
            onProblem: { problems.append($0) })
        sink.play(player, seconds: 0.2)
        #expect(problems == ["\(QueueItem.file(files[0]).displayName): \(BrokenFolderFile())"])
        #expect(player.update().item == .file(files[1]), "the next song does not play")
    }
}
