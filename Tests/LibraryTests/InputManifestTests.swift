import Files
import Foundation
import Library
import SystemPackage
import TestSupport
import Testing

@Suite("InputManifest")
struct InputManifestTests {
    @Test(
        "lines are paths as bytes: relative ones under the manifest's folder and mirrored, absolute ones by name, .. not mirrored; a list saved on Windows reads the same"
    )
    func reading() {
        let sjis: [UInt8] = [0x83, 0x6F, 0x83, 0x62, 0x83, 0x6E] // バッハ in Shift-JIS
        let bytes = Array("a/song.mid\n\n/abs/b.mid\n../up.mid\n".utf8) + sjis + Array("/x.mid\r\n\r\n".utf8)
        let manifest = InputManifest(bytes: bytes, folder: "/data")
        #expect(
            manifest.entries.map(\.file) == [
                "/data/a/song.mid", "/abs/b.mid", "/data/../up.mid",
                FilePath(bytes: Array("/data/".utf8) + sjis + Array("/x.mid".utf8)),
            ])
        #expect(manifest.entries.map(\.relativePath) == ["a/song.mid", nil, nil, FilePath(bytes: sjis + Array("/x.mid".utf8))])
        let unix = Array("a/song.mid\n\n/abs/b.mid\n".utf8)
        let windows = Array("a/song.mid\r\n\r\n/abs/b.mid\r\n".utf8)
        #expect(InputManifest(bytes: windows, folder: "/data").entries == InputManifest(bytes: unix, folder: "/data").entries)
    }

    @Test("written whole, relative under its folder, absolute elsewhere; a name with a line break is left out; read back the same")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let sjis = FilePath(bytes: Array(folder.path.utf8) + [0x2F, 0x83, 0x6F, 0x2E, 0x6D, 0x69, 0x64])
        let files: [FilePath] = [
            folder.filePath("a/b.mid"), sjis, "/elsewhere/c.mid", folder.filePath("bad\nname.mid"), folder.filePath("carriage.mid\r"),
        ]
        let manifestPath = folder.filePath("list.txt")
        let left = try InputManifest.write(files, to: manifestPath)
        #expect(left == [folder.filePath("bad\nname.mid"), folder.filePath("carriage.mid\r")])
        #expect(
            try SmallFile.read(manifestPath, limit: 1_000) == Array("a/b.mid\n".utf8) + [0x83, 0x6F, 0x2E, 0x6D, 0x69, 0x64, 0x0A]
                + Array("/elsewhere/c.mid\n".utf8))
        #expect(try folder.contents() == ["list.txt"], "no temporary file left")
        let read = try InputManifest(contentsOf: manifestPath)
        #expect(read.entries.map(\.file) == Array(files.prefix(3)))
    }

    @Test("a missing manifest says so, naming it")
    func missing() {
        #expect(throws: InputManifestError.unreadable("/nowhere/list.txt", "no such file")) {
            try InputManifest(contentsOf: "/nowhere/list.txt")
        }
        #expect(
            InputManifestError.unreadable("/nowhere/list.txt", "no such file").description
                == "/nowhere/list.txt: cannot read the manifest: no such file")
    }
}
