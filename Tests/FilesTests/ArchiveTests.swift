import Files
import Foundation
import SystemPackage
import TestSupport
import Testing

/// Archives read as folders of files: names as the archive holds them (Shift-JIS bytes, or UTF-8
/// where it says so), members read into memory within bounds, and what is hostile left out with
/// a warning each.
struct ArchiveTests {
    static let song = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, 4, 0, 0xFF, 0x2F, 0]
    static func shiftJIS(_ text: String) -> [UInt8] { Array(text.data(using: .shiftJIS)!) }
    static let limit = 1 << 20

    /// The members' names as text, in the archive's order.
    static func names(_ archive: Archive) -> [String] { archive.members.map(\.name.text) }

    static func zip(_ members: [ZIPWriter.Member]) -> [UInt8] {
        var writer = ZIPWriter()
        members.forEach { writer.add($0) }
        return writer.encode()
    }

    @Test("a ZIP's names: Shift-JIS bytes as they are where the UTF-8 flag is off, UTF-8 where it is on; each member read by its path")
    func zipNames() throws {
        let folder = try TemporaryFolder()
        let japanese = Self.shiftJIS("ショパン/バラード第1番.mid")
        let path = try folder.create(
            "pack.zip",
            Self.zip([
                .init(name: Self.shiftJIS("ショパン/")), .init(name: japanese, data: Self.song),
                .init(name: Array("曲/歌.mid".utf8), data: Self.song + [1], namesAreUTF8: true),
            ]))
        let archive = try Archive.open(FilePath(path), memberLimit: Self.limit)
        #expect(archive.members.map(\.name.bytes) == [japanese, Array("曲/歌.mid".utf8)])
        #expect(Self.names(archive) == ["ショパン/バラード第1番.mid", "曲/歌.mid"])
        #expect(archive.warnings.isEmpty)
        let member = try #require(ArchivedPath(FilePath(bytes: Array(path.utf8) + [UInt8(ascii: "/")] + japanese)))
        #expect(member.archive == FilePath(path) && member.inside.bytes == japanese)
        #expect(try member.read(memberLimit: Self.limit) == Self.song)
        #expect(try ArchivedPath(FilePath(path + "/曲/歌.mid"))?.read(memberLimit: Self.limit) == Self.song + [1])
        #expect(throws: ArchiveError.noSuchMember) { try ArchivedPath(FilePath(path + "/曲/gone.mid"))?.read(memberLimit: Self.limit) }
        // As folders: the archive, and a folder in it.
        let top = try #require(ArchivedPath(FilePath(path))).folder(memberLimit: Self.limit)
        #expect(top.folders.map { FilePath(bytes: $0).text } == ["ショパン", "曲"] && top.files.isEmpty)
        let inner = try #require(ArchivedPath(FilePath(bytes: Array(path.utf8) + [UInt8(ascii: "/")] + Self.shiftJIS("ショパン")))).folder(
            memberLimit: Self.limit)
        #expect(inner.exists && inner.files.map { FilePath(bytes: $0.name).text } == ["バラード第1番.mid"])
    }

    @Test(
        "an LZH archive of each header level: Shift-JIS names read as such (表, whose second byte is a backslash, too), folders kept",
        arguments: [LZHWriter.HeaderLevel.level0, .level1, .level2])
    func lzhNames(level: LZHWriter.HeaderLevel) throws {
        let folder = try TemporaryFolder()
        var writer = LZHWriter(level: level)
        writer.add(LZHWriter.Member(path: Self.shiftJIS("音楽/表.mid"), data: Self.song))
        writer.add(LZHWriter.Member(path: Self.shiftJIS("音楽/ゲーム/ソ.mid"), data: Self.song + [2]))
        let path = try folder.create("old.lzh", writer.encode())
        let archive = try Archive.open(FilePath(path), memberLimit: Self.limit)
        #expect(Self.names(archive) == ["音楽/表.mid", "音楽/ゲーム/ソ.mid"], "\(archive.warnings)")
        #expect(try ArchivedPath(FilePath(path + "/音楽/ゲーム/ソ.mid"))?.read(memberLimit: Self.limit) == Self.song + [2])
    }

    @Test("7z and tar.gz archives made by bsdtar read as ZIP ones do", arguments: ["pack.7z", "pack.tar.gz"])
    func otherFormats(name: String) throws {
        let folder = try TemporaryFolder()
        _ = try folder.create("in/Bach/Invention.mid", Self.song)
        _ = try folder.create("in/Satie/Gymnopédie.mid", Self.song + [3])
        let made = try Command(
            URL(fileURLWithPath: "/usr/bin/bsdtar"), arguments: ["-a", "-cf", folder.file(name), "-C", folder.file("in"), "Bach", "Satie"]
        ).run()
        try #require(made.succeeded, "\(made)")
        let archive = try Archive.open(folder.filePath(name), memberLimit: Self.limit)
        #expect(Set(Self.names(archive)) == ["Bach/Invention.mid", "Satie/Gymnopédie.mid"])
        #expect(try ArchivedPath(FilePath(folder.file(name) + "/Satie/Gymnopédie.mid"))?.read(memberLimit: Self.limit) == Self.song + [3])
    }

    @Test("names that lead outside the archive, an encrypted member and one past the limit are left out, each said once; the rest is read")
    func hostileMembers() throws {
        let folder = try TemporaryFolder()
        let path = try folder.create(
            "hostile.zip",
            Self.zip([
                .init(name: Array("../evil.mid".utf8), data: Self.song), .init(name: Array("/etc/evil.mid".utf8), data: Self.song),
                .init(name: Array("a/../../evil.mid".utf8), data: Self.song),
                .init(name: Array("secret.mid".utf8), data: [UInt8](repeating: 7, count: 12) + Self.song, isEncrypted: true),
                .init(name: Array("huge.mid".utf8), data: [UInt8](repeating: 0, count: 5_000)),
                .init(name: Array("./good.mid".utf8), data: Self.song),
            ]))
        let archive = try Archive.open(FilePath(path), memberLimit: 4_096)
        #expect(Self.names(archive) == ["good.mid"])
        #expect(
            archive.warnings.map(\.description) == [
                "../evil.mid: a name that leads outside the archive, left out", "/etc/evil.mid: a name that leads outside the archive, left out",
                "a/../../evil.mid: a name that leads outside the archive, left out", "secret.mid: encrypted, left out (no password)",
                "huge.mid: larger than the 4096 bytes a file in it may have, left out",
            ])
        #expect(throws: ArchiveError.encrypted) { try ArchivedPath(FilePath(path + "/secret.mid"))?.read(memberLimit: 4_096) }
        #expect(throws: ArchiveError.memberTooLarge(limit: 4_096)) { try ArchivedPath(FilePath(path + "/huge.mid"))?.read(memberLimit: 4_096) }
    }

    @Test("a name held twice is listed once, its later file read (as unpacking leaves it), and said")
    func repeatedName() throws {
        let folder = try TemporaryFolder()
        let path = try folder.create(
            "twice.zip",
            Self.zip([
                .init(name: Array("a.mid".utf8), data: Self.song), .init(name: Array("b.mid".utf8), data: Self.song),
                .init(name: Array("./a.mid".utf8), data: Self.song + [1]),
            ]))
        let archive = try Archive.open(FilePath(path), memberLimit: Self.limit)
        #expect(Self.names(archive) == ["b.mid", "a.mid"])
        #expect(archive.data(of: "a.mid") == Self.song + [1])
        #expect(archive.warnings.map(\.description) == ["a.mid: in the archive twice, the later one read"])
    }

    @Test("a bomb: a tar.gz whose 64 MB member of zeros packs into kilobytes is stopped at the limit as it is decompressed")
    func bomb() throws {
        let folder = try TemporaryFolder()
        _ = try folder.create("in/zeros.mid", [UInt8](repeating: 0, count: 64 << 20))
        _ = try folder.create("in/song.mid", Self.song)
        let made = try Command(
            URL(fileURLWithPath: "/usr/bin/bsdtar"),
            arguments: ["-czf", folder.file("bomb.tar.gz"), "-C", folder.file("in"), "zeros.mid", "song.mid"]
        ).run()
        try #require(made.succeeded, "\(made)")
        let size = try #require(try? FilePath(folder.file("bomb.tar.gz")).fileSize())
        #expect(size < 1 << 20)
        let archive = try Archive.open(folder.filePath("bomb.tar.gz"), memberLimit: Self.limit)
        #expect(Self.names(archive) == ["song.mid"])
        #expect(archive.warnings == [.memberTooLarge(FilePath("zeros.mid"), limit: Self.limit)])
    }

    @Test("10,000 members: every one listed and read")
    func manyMembers() throws {
        let folder = try TemporaryFolder()
        let members = (0..<10_000).map { ZIPWriter.Member(name: Array("songs/\($0).mid".utf8), data: Self.song + [UInt8(truncatingIfNeeded: $0)]) }
        let path = try folder.create("many.zip", Self.zip(members))
        let archive = try Archive.open(FilePath(path), memberLimit: Self.limit)
        #expect(archive.members.count == 10_000 && archive.warnings.isEmpty)
        #expect(try ArchivedPath(FilePath(path + "/songs/9999.mid"))?.read(memberLimit: Self.limit) == Self.song + [UInt8(truncatingIfNeeded: 9_999)])
    }

    @Test(
        "an archive cut short: the members before the cut are kept and the damage said, or, where nothing can be read, the archive refused with why")
    func truncated() throws {
        let folder = try TemporaryFolder()
        let members = (0..<4).map {
            ZIPWriter.Member(name: Array("\($0).mid".utf8), data: Self.song + [UInt8]($0 < 3 ? [] : [UInt8](repeating: 9, count: 4_000)))
        }
        let whole = Self.zip(members)
        // Cut inside the last member's data: the central directory at the end is gone.
        let path = try folder.create("cut.zip", Array(whole.prefix(whole.count - 4_100)))
        let archive = try Archive.open(FilePath(path), memberLimit: Self.limit)
        #expect(Self.names(archive) == ["0.mid", "1.mid", "2.mid"])
        #expect(archive.warnings.count == 1 && archive.warnings[0].description.hasPrefix("damaged: "), "\(archive.warnings)")
        let garbage = try folder.create("garbage.zip", Array("PK\u{3}\u{4}garbage".utf8))
        #expect(throws: ArchiveError.self) { try Archive.open(FilePath(garbage), memberLimit: Self.limit) }
    }

    @Test("an archive inside an archive opens as a folder, one level deep; one level further is refused")
    func nested() throws {
        let folder = try TemporaryFolder()
        var lzh = LZHWriter(level: .level2)
        lzh.add(LZHWriter.Member(path: Array("song.mid".utf8), data: Self.song))
        let innermost = Self.zip([.init(name: Array("deep.mid".utf8), data: Self.song)])
        lzh.add(LZHWriter.Member(path: Array("deeper.zip".utf8), data: innermost))
        let path = try folder.create("outer.zip", Self.zip([.init(name: Array("packs/inner.lzh".utf8), data: lzh.encode())]))
        let outer = try #require(ArchivedPath(FilePath(path + "/packs"))).folder(memberLimit: Self.limit)
        #expect(outer.folders.map { FilePath(bytes: $0).text } == ["inner.lzh"])
        let inner = try #require(ArchivedPath(FilePath(path + "/packs/inner.lzh"))).folder(memberLimit: Self.limit)
        #expect(inner.files.map { FilePath(bytes: $0.name).text } == ["song.mid", "deeper.zip"])
        #expect(try ArchivedPath(FilePath(path + "/packs/inner.lzh/song.mid"))?.read(memberLimit: Self.limit) == Self.song)
        #expect(throws: ArchiveError.nestedTooDeep) {
            try ArchivedPath(FilePath(path + "/packs/inner.lzh/deeper.zip/deep.mid"))?.read(memberLimit: Self.limit)
        }
    }

    @Test("a path is an archive's only through a regular file of an archive's name and signature")
    func addressing() throws {
        let folder = try TemporaryFolder()
        _ = try folder.create("plain.txt", Array("text".utf8))
        _ = try folder.create("fake.zip", Array("not a zip".utf8))
        _ = try folder.create("real/song.mid", Self.song)
        #expect(ArchivedPath(folder.filePath("real/song.mid")) == nil)
        #expect(ArchivedPath(folder.filePath("plain.txt/song.mid")) == nil)
        #expect(ArchivedPath(folder.filePath("fake.zip/song.mid")) == nil)
        #expect(ArchivedPath(folder.filePath("gone.zip/song.mid")) == nil)
    }
}
