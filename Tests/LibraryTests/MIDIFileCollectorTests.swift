import Files
import Foundation
import Synchronization
import SystemPackage
import Testing

@testable import Library

#if canImport(Glibc)
    import Glibc
#endif

struct MIDIFileCollectorTests {
    @Test func ordersNamesAsPeopleDo() {
        let names = ["Op.10 No.1.mid", "op.9 No.2.mid", "Op.9 No.10.mid", "Op.9 No.1.mid", "Étude.mid", "Zeta.mid"]
        #expect(
            names.sorted(by: NaturalOrder.precedes) == [
                "Étude.mid", "Op.9 No.1.mid", "op.9 No.2.mid", "Op.9 No.10.mid", "Op.10 No.1.mid", "Zeta.mid",
            ])
        // The same name typed on macOS (NFD) and on Linux (NFC) compares equal by content.
        let nfc = "Gymnop\u{E9}die 2.mid"
        let nfd = "Gymnope\u{301}die 10.mid"
        #expect(NaturalOrder.precedes(nfc, nfd))
        #expect(!NaturalOrder.precedes(nfd, nfc))
    }

    @Test func collectsFoldersFirstInNaturalOrderAndSurvivesLoops() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("collector-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = [
            "ショパン/Ballades/Ballade No.10.mid", "ショパン/Ballades/Ballade No.4.mid", "ショパン/b.mid",
            "Bach/a.MID", "Bach/notes.txt", "Bach/.hidden.mid", "Bach/misnamed.bin",
        ]
        for file in files {
            let path = root + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let contents = file.hasSuffix("misnamed.bin") ? Array("MThd".utf8) + [0, 0, 0, 6] : Array("x".utf8)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(contents)))
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/Bach/loop", withDestinationPath: root)
        var collector = MIDIFileCollector()
        collector.add(path: FilePath(root))
        #expect(
            collector.files.map { String($0.string.dropFirst(root.count + 1)) } == [
                "Bach/a.MID", "Bach/misnamed.bin", "ショパン/Ballades/Ballade No.4.mid", "ショパン/Ballades/Ballade No.10.mid", "ショパン/b.mid",
            ])
        #expect(collector.problems.isEmpty)
    }

    /// A playlist's web addresses are said to be no files, and a missing entry names the playlist
    /// it is listed in; the rest is collected.
    @Test func playlistAddressesAndMissingEntriesAreSaidWithThePlaylist() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("collector-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: root + "/here.mid", contents: Data("x".utf8)))
        let lines = ["#EXTM3U", "here.mid", "gone.mid", "http://example.org/a.mid", "HTTPS://example.org/b.mid", "file://elsewhere/c.mid"]
        #expect(FileManager.default.createFile(atPath: root + "/list.m3u", contents: Data(lines.joined(separator: "\n").utf8)))
        var collector = MIDIFileCollector()
        collector.add(path: FilePath(root + "/list.m3u"))
        #expect(collector.files == [FilePath(root + "/here.mid")])
        #expect(
            collector.problems.map(\.description) == [
                "\(root)/gone.mid: no such file or directory (listed in \(root)/list.m3u)",
                "\(root)/list.m3u: http://example.org/a.mid: a web address, not a file; smfplay plays files",
                "\(root)/list.m3u: HTTPS://example.org/b.mid: a web address, not a file; smfplay plays files",
                "\(root)/list.m3u: file://elsewhere/c.mid: a web address, not a file; smfplay plays files",
            ])
    }

    /// Stopped while it lists (Ctrl-C during an index of a large library): it says so, and has
    /// taken no file from the folders it was listing, nor said they hold none.
    @Test func aListingStoppedPartWaySaysSo() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("collector-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in 0..<20 {
            let path = root + "/Composer \(folder)/Works"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path + "/Song.mid", contents: Data("x".utf8)))
        }
        let asked = Mutex(0)
        var collector = MIDIFileCollector(isCancelled: {
            asked.withLock {
                $0 += 1
                return $0 > 3
            }
        })
        collector.add(path: FilePath(root))
        #expect(collector.wasCancelled && collector.files.isEmpty && collector.problems.isEmpty)
        var whole = MIDIFileCollector()
        whole.add(path: FilePath(root))
        #expect(!whole.wasCancelled && whole.files.count == 20)
    }

    /// While a large library's folders are listed, the count of MIDI files found so far is told
    /// as each folder is listed (a progress line has something to show on a slow share): it only
    /// grows, and ends at every MIDI file under the folder.
    @Test func theFilesFoundAreToldAsTheFoldersAreListed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("collector-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in 0..<12 {
            let path = root + "/Composer \(folder)/Works"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for song in 0...folder { #expect(FileManager.default.createFile(atPath: path + "/Song \(song).mid", contents: Data("x".utf8))) }
            #expect(FileManager.default.createFile(atPath: path + "/notes.txt", contents: Data("x".utf8)))
        }
        let told = Mutex<[Int]>([])
        var collector = MIDIFileCollector(found: { count in told.withLock { $0.append(count) } })
        collector.add(path: FilePath(root))
        let counts = told.withLock { $0 }.sorted()
        #expect(collector.files.count == 78)
        // One count a folder listed (the root, 12 composers, 12 works folders), the last all of them.
        #expect(counts.count == 25 && counts.last == 78)
        #expect(Set(counts.suffix(12)).count == 12)
    }

    /// Names from older systems, made with raw bytes (no String can name them): a Shift-JIS
    /// file name (テスト.mid), a Latin-1 folder name (café) with a file in it, and a Latin-1 text
    /// file, which is not MIDI: the MIDI files are collected with their names' bytes.
    @Test func namesThatAreNotUTF8AreCollected() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("encodings-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let shiftJIS: [UInt8] = [0x83, 0x65, 0x83, 0x58, 0x83, 0x67] + Array(".mid".utf8)
        let latin1Folder: [UInt8] = Array("caf".utf8) + [0xE9]
        let latin1Text: [UInt8] = Array("r".utf8) + [0xE9] + Array("sum\u{E9}.txt".utf8)
        func rawPath(_ name: [UInt8]) -> FilePath { FilePath(bytes: Array(root.utf8) + [UInt8(ascii: "/")] + name) }
        for name in [shiftJIS, latin1Text, latin1Folder + Array("/x.mid".utf8)] {
            if name.starts(with: latin1Folder) { #expect(rawPath(latin1Folder).withPlatformString { mkdir($0, 0o755) } == 0) }
            let fd = rawPath(name).withPlatformString { open($0, O_CREAT | O_WRONLY, 0o644) }
            #expect(fd >= 0)
            close(fd)
        }
        #expect(FileManager.default.createFile(atPath: root + "/fine.mid", contents: Data("MThd".utf8)))

        var collector = MIDIFileCollector()
        collector.add(path: FilePath(root))
        #expect(collector.files == [rawPath(latin1Folder + Array("/x.mid".utf8)), FilePath(root + "/fine.mid"), rawPath(shiftJIS)])
        #expect(collector.files.map { $0.lastComponent!.text } == ["x.mid", "fine.mid", "テスト.mid"])
        #expect(collector.problems.isEmpty)
    }

    @Test func reportsMissingPathsAndEmptyFolders() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        var collector = MIDIFileCollector()
        collector.add(path: FilePath(empty))
        collector.add(path: FilePath(empty + "/missing.mid"))
        #expect(collector.files.isEmpty)
        #expect(
            collector.problems.map(\.description) == ["\(empty): no MIDI files in this folder", "\(empty)/missing.mid: no such file or directory"])
    }
}
