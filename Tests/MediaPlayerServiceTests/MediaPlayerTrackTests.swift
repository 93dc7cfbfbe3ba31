import Files
import Playback
import SMF
import SystemPackage
import Testing

@testable import MediaPlayerService

/// The song playing as MPRIS describes it: from its queue item, its title and length; and its
/// track id, which SetPosition names.
@Suite("MediaPlayerTrack")
struct MediaPlayerTrackTests {
    @Test("a file in the library: its folders are album and artist, its title the song's or else the file's name, its length in microseconds")
    func fromLibraryFile() {
        let track = MediaPlayerTrack(number: 4, item: .file("/music/Bach/Inventions/Invention No.1.mid"), songTitle: nil, durationSeconds: 61.2345674)
        #expect(
            track
                == MediaPlayerTrack(
                    number: 4, file: "/music/Bach/Inventions/Invention No.1.mid", title: "Invention No.1", lengthMicroseconds: 61_234_567,
                    album: "Inventions", artist: "Bach"))
        #expect(MediaPlayerTrack(number: 4, item: .file("/music/a.mid"), songTitle: "Stairs in C", durationSeconds: 1).title == "Stairs in C")
    }

    @Test("an RMID file's INFO artist and album win over its folders; its genre and date are said too")
    func rmidInfo() {
        let info = RMIDInfo(texts: [
            .artist: Array("Chopin".utf8), .album: Array("Nocturnes".utf8), .genre: Array("Classical".utf8), .date: Array("1835".utf8),
        ])
        let summary = RMIDInfoSummary(info, decoding: TextDecoding(declared: .utf8))
        let track = MediaPlayerTrack(
            number: 1, item: .file("/music/Bach/Inventions/x.rmi"), songTitle: "Nocturne", songInfo: summary, durationSeconds: 1)
        #expect(track.artist == "Chopin" && track.album == "Nocturnes" && track.genre == "Classical" && track.contentCreated == "1835")
        let piped = MediaPlayerTrack(number: 2, item: .standardInput, songTitle: nil, songInfo: summary, durationSeconds: 1)
        #expect(piped.artist == "Chopin" && piped.album == "Nocturnes" && piped.file == nil)
        // An INFO list without them leaves the folders.
        let titleOnly = RMIDInfoSummary(RMIDInfo(texts: [.title: Array("T".utf8)]), decoding: TextDecoding(declared: .utf8))
        let folders = MediaPlayerTrack(
            number: 3, item: .file("/music/Bach/Inventions/x.rmi"), songTitle: nil, songInfo: titleOnly, durationSeconds: 1)
        #expect(folders.artist == "Bach" && folders.album == "Inventions" && folders.genre == nil && folders.contentCreated == nil)
    }

    @Test("a relative entry is made absolute and normalized: its URL names the file from anywhere")
    func relativeEntry() {
        let track = MediaPlayerTrack(number: 1, item: .file("Satie/../Satie/./Gymnopédies/No.1.mid"), songTitle: nil, durationSeconds: 0)
        var expected = FilePath.currentDirectory.appending("Satie/Gymnopédies/No.1.mid")
        expected.lexicallyNormalize()
        #expect(track.file == expected)
        #expect(track.album == "Gymnopédies" && track.artist == "Satie")
    }

    @Test("a file at the root has no folders to name")
    func fileAtTheRoot() {
        let track = MediaPlayerTrack(number: 1, item: .file("/a.mid"), songTitle: nil, durationSeconds: 0)
        #expect(track.album == nil && track.artist == nil)
        #expect(MediaPlayerTrack(number: 1, item: .file("/Bach/a.mid"), songTitle: nil, durationSeconds: 0).artist == nil)
    }

    @Test("a song from standard input: no file, no folders, called standard input unless it has a title")
    func fromStandardInput() {
        let track = MediaPlayerTrack(number: 2, item: .standardInput, songTitle: nil, durationSeconds: 2)
        #expect(track == MediaPlayerTrack(number: 2, file: nil, title: "standard input", lengthMicroseconds: 2_000_000))
        #expect(MediaPlayerTrack(number: 2, item: .standardInput, songTitle: "Piped", durationSeconds: 2).title == "Piped")
    }

    @Test("a track's id carries its number, read back from SetPosition's argument")
    func trackIdentifier() {
        let track = MediaPlayerTrack(number: 12, file: nil, title: "t", lengthMicroseconds: 0)
        #expect(track.objectPath == "/org/smfplay/track/12")
        #expect(MediaPlayerTrack.number(inObjectPath: track.objectPath) == 12)
        #expect(MediaPlayerTrack.number(inObjectPath: "/org/smfplay/track/") == nil)
        #expect(MediaPlayerTrack.number(inObjectPath: "/org/other/track/12") == nil)
    }
}
