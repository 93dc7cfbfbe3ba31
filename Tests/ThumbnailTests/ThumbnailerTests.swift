import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing
import Thumbnails

@Suite("Thumbnailer")
struct ThumbnailerTests {
    @Test func theLongerSideIsTheSizeAndTheImageIsFourByThree() {
        #expect(Thumbnailer().dimensions == (256, 192))
        #expect(Thumbnailer(size: 128).dimensions == (128, 96))
        #expect(Thumbnailer(size: 17).dimensions == (17, 13))
        #expect(Thumbnailer(size: 1024).dimensions == (1024, 768))
    }

    @Test func aBrokenFileLeavesNoImageAndNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        // A note-on cut after its key, inside a complete chunk.
        let broken: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + [0, 0, 0, 3, 0x00, 0x90, 60]
        let input = folder.file("broken.mid")
        try Data(broken).write(to: URL(fileURLWithPath: input))
        #expect {
            try Thumbnailer().write(midiFile: FilePath(input), to: folder.filePath("broken.png"))
        } throws: { error in
            "\(error)" == "\(input): truncated event at byte 22 in track 1"
        }
        #expect(try folder.contents() == ["broken.mid"])
    }

    @Test func aMissingFileIsAnErrorNamingIt() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("absent.mid")
        #expect {
            try Thumbnailer().write(midiFile: FilePath(input), to: folder.filePath("absent.png"))
        } throws: { error in
            "\(error)" == "\(input): cannot read: no such file or directory"
        }
        #expect(try folder.contents() == [])
    }
}
