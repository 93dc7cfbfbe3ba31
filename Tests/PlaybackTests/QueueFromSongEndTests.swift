import Files
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Playback

/// A queue started at the very end of its song (a resume state saved as the song ended, or
/// `--seek` to its length): the next song plays, as it would have had the song played to its end.
@Suite("Player: a queue started at its song's end")
struct QueueFromSongEndTests {
    /// A second of a note `key`, on a piano.
    static func note(_ key: UInt8) -> Song {
        TestSongs.song { track in
            track.append(.programChange(channel: 0, program: 0), atTick: 0)
            track.append(.noteOn(channel: 0, note: key, velocity: 100), atTick: 0)
            track.append(.noteOff(channel: 0, note: key, velocity: 0), atTick: TestSongs.tick(1))
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(1))
        }
    }

    @Test("started at the end of the first of two songs: the second plays, and the queue has not ended")
    func nextSongPlays() throws {
        let folder = try TemporaryFolder()
        let files = try [60, 64].map { key in
            let path = folder.file("\(key).mid")
            try Data(SMFWriter().encode(Self.note(UInt8(key)).file)).write(to: URL(fileURLWithPath: path))
            return FilePath(path)
        }
        let (player, sink) = try SeekHandoverTests.player(playing: files, atSeconds: Self.note(60).duration)
        // Into the second song, which lasts a second.
        sink.play(player, seconds: 0.5)
        let snapshot = player.update()
        #expect(!snapshot.hasEnded, "the queue ended at the first song's end")
        #expect(snapshot.place == 1 && snapshot.item == .file(files[1]), "\(snapshot.place): \(String(describing: snapshot.item))")
    }
}
