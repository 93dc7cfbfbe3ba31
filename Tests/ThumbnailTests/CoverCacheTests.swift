import Files
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing
import Thumbnails

/// RMID files' covers copied out of them for the media keys, written by the project's `RMIDWriter`.
@Suite("Cover cache")
struct CoverCacheTests {
    static let song: [UInt8] = {
        var track = Track()
        track.append(.meta(.endOfTrack), atTick: 0)
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }()
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(0..<101)
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 9, count: 40)

    /// Writes an RMID file with `picture`, reads it, and copies its cover.
    static func cover(_ picture: [UInt8], in folder: TemporaryFolder, name: String) throws -> (song: FilePath, cover: FilePath?) {
        let path = FilePath(try folder.create(name, RMIDWriter(picture: picture).encode(song: song)))
        let file = try SMFReader().read(path: path).file
        let info = try #require(file.rmidInfo?.picture)
        return (path, try ThumbnailCache(cacheHome: FilePath(folder.file("cache"))).covers.cover(of: path, picture: info))
    }

    @Test("a PNG and a JPEG are copied byte for byte, named by the song's URI with their own extension, for the user only")
    func copies() throws {
        let folder = try TemporaryFolder()
        for (picture, name, suffix) in [(Self.png, "a.rmi", ".png"), (Self.jpeg, "b.rmi", ".jpg")] {
            let (song, cover) = try Self.cover(picture, in: folder, name: name)
            let path = try #require(cover)
            #expect(path == CoverCache(cacheHome: FilePath(folder.file("cache"))).path(for: song, format: suffix == ".png" ? .png : .jpeg))
            #expect(path.text.hasPrefix(folder.file("cache/smfplay/covers/")) && path.text.hasSuffix(suffix))
            #expect(try ReadableFile(path).read(upTo: 1000, at: 0) == picture)
            #expect(FileStamp(ofFileAt: path) != nil)
        }
        var status = stat()
        #expect(stat(folder.file("cache/smfplay/covers"), &status) == 0 && status.st_mode & 0o777 == 0o700)
    }

    @Test("a picture of another kind has no cover")
    func otherKinds() throws {
        let folder = try TemporaryFolder()
        #expect(try Self.cover(Array("GIF89a".utf8), in: folder, name: "c.rmi").cover == nil)
    }
}
