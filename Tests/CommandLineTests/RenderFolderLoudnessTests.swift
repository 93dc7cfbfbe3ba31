import Foundation
import TestSupport
import Testing

/// `render --normalize --loudness folder`: each folder brought to the target as one, its songs
/// keeping their levels relative to one another (an album), checked by an independent meter
/// (ffmpeg's) on the written files, one by one and one after another as one recording.
struct RenderFolderLoudnessTests {
    /// Album/ holds a loud and a quiet song 10 LU apart; Single/ one quiet song.
    static func library(_ sandbox: Sandbox) throws {
        try sandbox.write("Songs/Album/loud.mid", LoudnessSong.file(volume: 127))
        try sandbox.write("Songs/Album/quiet.mid", LoudnessSong.file(volume: LoudnessSong.tenBelow))
        try sandbox.write("Songs/Single/quiet.mid", LoudnessSong.file(volume: LoudnessSong.tenBelow))
    }

    static func decibels(_ tag: String?) -> Double? {
        tag.flatMap { Double($0.replacingOccurrences(of: " dB", with: "")) }
    }

    @Test(
        "each folder at the target as one, within 0.5 LU; its songs keep their 10 LU within 0.5; album gain tags alike for the folder; a folder of one song is that song at the target"
    )
    func foldersAsAlbums() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.library(sandbox)
        let result = try sandbox.run(["render", "Songs", "-o", "Out", "--format", "flac", "--normalize", "--loudness", "folder"] + Fixtures.fast)
        try #require(result.succeeded, "\(result)")
        #expect(result.stderr.contains("measuring the loudness of 3 songs in 2 folders"), "\(result)")

        let loud = try FFmpegReader.loudness(sandbox.path("Out/Album/loud.flac"))
        let quiet = try FFmpegReader.loudness(sandbox.path("Out/Album/quiet.flac"))
        #expect(abs(loud.integratedLUFS - quiet.integratedLUFS - 10) <= 0.5, "the album's songs: loud \(loud), quiet \(quiet)")
        let album = try FFmpegReader.loudness(ofOneAfterAnother: [sandbox.path("Out/Album/loud.flac"), sandbox.path("Out/Album/quiet.flac")])
        #expect(abs(album.integratedLUFS + 18) <= 0.5, "the album as one: \(album)")
        for reading in [loud, quiet] { #expect(reading.truePeakDBTP <= -1.0, "\(reading)") }
        let single = try FFmpegReader.loudness(sandbox.path("Out/Single/quiet.flac"))
        #expect(abs(single.integratedLUFS + 18) <= 0.5, "a folder of one song: \(single)")

        let tags = try ["loud", "quiet"].map { try FFmpegReader.probe(sandbox.path("Out/Album/\($0).flac")).tags }
        let albumGains = try tags.map { try #require(Self.decibels($0["REPLAYGAIN_ALBUM_GAIN"]), "\($0)") }
        let trackGains = try tags.map { try #require(Self.decibels($0["REPLAYGAIN_TRACK_GAIN"]), "\($0)") }
        #expect(albumGains[0] == albumGains[1], "one album gain for the folder: \(albumGains)")
        #expect(abs(albumGains[0] - (-18 - album.integratedLUFS)) <= 0.5, "album gain \(albumGains[0]) for the album at \(album)")
        #expect(abs(trackGains[1] - trackGains[0] - 10) <= 0.5, "track gains \(trackGains)")
    }

    @Test("what --normalize --loudness folder would catch: with --loudness track both songs of the album are at the target, 10 LU closer")
    func trackLevelsEachSong() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.library(sandbox)
        let result = try sandbox.run(
            ["render", "Songs/Album", "-o", "Out", "--format", "flac", "--normalize", "--loudness", "track", "-q"] + Fixtures.fast)
        try #require(result.succeeded, "\(result)")
        let loud = try FFmpegReader.loudness(sandbox.path("Out/loud.flac"))
        let quiet = try FFmpegReader.loudness(sandbox.path("Out/quiet.flac"))
        #expect(abs(loud.integratedLUFS - quiet.integratedLUFS) <= 0.5, "loud \(loud), quiet \(quiet)")
        let tags = try FFmpegReader.probe(sandbox.path("Out/loud.flac")).tags
        #expect(tags["REPLAYGAIN_ALBUM_GAIN"] == nil && tags["REPLAYGAIN_TRACK_GAIN"] != nil, "\(tags)")
    }

    @Test("songs of the folder not rendered count in its loudness: rendering one song of an album gives it the album's gain")
    func wholeFolderCounts() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.library(sandbox)
        let result = try sandbox.run(
            ["render", "Songs/Album/quiet.mid", "-o", "quiet.wav", "--normalize", "--loudness", "folder", "-q"] + Fixtures.fast)
        try #require(result.succeeded, "\(result)")
        let alone = try FFmpegReader.loudness(sandbox.path("quiet.wav"))
        // Two songs as long, 10 LU apart: the album is 2.6 LU under its loud song, at the target;
        // its quiet song 7.4 LU under it (at the target alone, were the loud song left out).
        #expect(abs(alone.integratedLUFS + 25.4) <= 0.5, "the quiet song of the album: \(alone)")
    }

    @Test("--loudness is for --normalize, off is no way to normalize, and folder needs one render for a folder: usage errors naming the option")
    func usage() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        for arguments in [
            ["--loudness", "folder"], ["--loudness", "off", "--normalize"], ["--loudness", "folder", "--normalize", "--shard", "0/2", "-o", "Out"],
            ["--loudness", "album", "--normalize"],
        ] {
            let result = try sandbox.run(["render", "song.mid"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr.contains("--loudness"), "\(arguments): \(result)")
        }
    }
}
