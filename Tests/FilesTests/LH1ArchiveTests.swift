import Files
import SystemPackage
import TestSupport
import Testing

/// LZH archives of LHarc 1 (`-lh1-`), whose members libarchive lists but does not decode: liblhasa
/// decodes them from their bytes, and they read as any other member does, names and bounds alike.
struct LH1ArchiveTests {
    static let limit = 1 << 20
    static let song = ArchiveTests.song
    static func shiftJIS(_ text: String) -> [UInt8] { ArchiveTests.shiftJIS(text) }

    static func archive(_ members: [LZHWriter.Member], level: LZHWriter.HeaderLevel = .level1) -> [UInt8] {
        var writer = LZHWriter(level: level)
        members.forEach { writer.add($0) }
        return writer.encode()
    }

    @Test(
        "-lh1- members at each header level, beside stored ones: Shift-JIS names (表, whose second byte is 0x5C) in a nested folder, each read to the byte",
        arguments: [LZHWriter.HeaderLevel.level0, .level1, .level2])
    func lh1Members(level: LZHWriter.HeaderLevel) throws {
        let folder = try TemporaryFolder()
        let long = Self.song + LH1EncoderTests.noise(60_000, seed: 1) + Self.song
        let members = [
            LZHWriter.Member(path: Self.shiftJIS("音楽/")),
            LZHWriter.Member(path: Self.shiftJIS("音楽/表.mid"), data: Self.song, method: .lh1),
            LZHWriter.Member(path: Self.shiftJIS("音楽/ゲーム/ソ.mid"), data: long, method: .lh1),
            LZHWriter.Member(path: Array("readme.txt".utf8), data: Array("stored".utf8)),
            LZHWriter.Member(path: Array("empty.mid".utf8), data: [], method: .lh1),
        ]
        let path = try folder.create("old.lzh", Self.archive(members, level: level))
        let archive = try Archive.open(FilePath(path), memberLimit: Self.limit)
        #expect(ArchiveTests.names(archive) == ["音楽/表.mid", "音楽/ゲーム/ソ.mid", "readme.txt", "empty.mid"], "\(archive.warnings)")
        #expect(archive.warnings.isEmpty, "\(archive.warnings)")
        #expect(archive.data(of: FilePath("音楽/表.mid")) == Self.song)
        #expect(archive.data(of: FilePath("音楽/ゲーム/ソ.mid")) == long)
        #expect(archive.data(of: "readme.txt") == Array("stored".utf8) && archive.data(of: "empty.mid") == [])
        #expect(try ArchivedPath(FilePath(path + "/音楽/ゲーム/ソ.mid"))?.read(memberLimit: Self.limit) == long)
    }

    @Test("the other methods liblhasa decodes are read the same way: a -lz5- member (LArc's, at level 0)")
    func lz5Member() throws {
        let folder = try TemporaryFolder()
        let members = [
            LZHWriter.Member(path: Array("lz5.mid".utf8), data: Self.song + [9], method: .lz5Literals),
            LZHWriter.Member(path: Array("lh1.mid".utf8), data: Self.song, method: .lh1),
        ]
        let path = try folder.create("larc.lzh", Self.archive(members, level: .level0))
        let archive = try Archive.open(FilePath(path), memberLimit: Self.limit)
        #expect(ArchiveTests.names(archive) == ["lz5.mid", "lh1.mid"] && archive.warnings.isEmpty, "\(archive.warnings)")
        #expect(archive.data(of: "lz5.mid") == Self.song + [9] && archive.data(of: "lh1.mid") == Self.song)
    }

    @Test("a -lh1- LZH inside a ZIP, read from memory, opens as a folder and reads its members")
    func nestedInAZIP() throws {
        let folder = try TemporaryFolder()
        let inner = Self.archive([LZHWriter.Member(path: Self.shiftJIS("曲/表.mid"), data: Self.song, method: .lh1)], level: .level2)
        let path = try folder.create("outer.zip", ArchiveTests.zip([.init(name: Array("packs/old.lzh".utf8), data: inner)]))
        let place = try #require(ArchivedPath(FilePath(path + "/packs/old.lzh"))).folder(memberLimit: Self.limit)
        #expect(place.folders.map { FilePath(bytes: $0).text } == ["曲"] && place.warnings.isEmpty, "\(place.warnings)")
        #expect(try ArchivedPath(FilePath(path + "/packs/old.lzh/曲/表.mid"))?.read(memberLimit: Self.limit) == Self.song)
    }

    /// `bytes` with the method of the stored member `name` (level 1) made `method`, its header's sum
    /// made right again: a method nothing here can write.
    static func renamingMethod(of name: String, to method: String, in bytes: [UInt8]) throws -> [UInt8] {
        var bytes = bytes
        let marker = Array("-lh0-".utf8)
        let start = try #require(
            bytes.indices.first { index in
                bytes[index...].starts(with: marker) && bytes[(index + 19)...].starts(with: [UInt8(name.utf8.count)] + Array(name.utf8))
            })
        for (offset, byte) in method.utf8.enumerated() { bytes[start + offset] = byte }
        let size = Int(bytes[start - 2])
        bytes[start - 1] = bytes[start..<start + size].reduce(0, &+)
        return bytes
    }

    @Test(
        "a -lh1- member with damaged bytes, one whose bytes stop short, and one of a method nothing decodes (-lh3-) are each left out with one warning; the members after them read"
    )
    func damagedMembers() throws {
        let folder = try TemporaryFolder()
        let text = Array(String(repeating: "Tokimeki Memorial ", count: 200).utf8)
        var damaged = LZHWriter.Member(path: Array("damaged.mid".utf8), data: text, method: .lh1)
        var packed = damaged.packed
        packed[packed.count / 2] ^= 0x04
        damaged.packedInstead = packed
        var short = LZHWriter.Member(path: Array("short.mid".utf8), data: text, method: .lh1)
        short.packedInstead = Array(short.packed.prefix(20))
        let members = [
            LZHWriter.Member(path: Array("first.mid".utf8), data: Self.song, method: .lh1), damaged, short,
            LZHWriter.Member(path: Array("lh3.mid".utf8), data: Self.song),
            LZHWriter.Member(path: Array("last.mid".utf8), data: Self.song + [1], method: .lh1),
        ]
        let bytes = try Self.renamingMethod(of: "lh3.mid", to: "-lh3-", in: Self.archive(members))
        let path = try folder.create("damaged.lzh", bytes)
        let archive = try Archive.open(FilePath(path), memberLimit: Self.limit)
        #expect(ArchiveTests.names(archive) == ["first.mid", "last.mid"])
        #expect(archive.data(of: "last.mid") == Self.song + [1])
        let warnings = archive.warnings.map(\.description)
        #expect(warnings.count == 3, "\(warnings)")
        #expect(warnings.first?.hasPrefix("damaged.mid: damaged: ") == true && warnings.first?.hasSuffix(", left out") == true, "\(warnings)")
        #expect(warnings.dropFirst().first?.hasPrefix("short.mid: damaged: its -lh1- data decodes to ") == true, "\(warnings)")
        #expect(warnings.last == "lh3.mid: its method -lh3- is one neither libarchive nor liblhasa decodes, left out", "\(warnings)")
        #expect(throws: ArchiveError.notDecoded(.unknownMethod("-lh3-"))) {
            try ArchivedPath(FilePath(path + "/lh3.mid"))?.read(memberLimit: Self.limit)
        }
        #expect(throws: ArchiveError.self) { try ArchivedPath(FilePath(path + "/damaged.mid"))?.read(memberLimit: Self.limit) }
    }

    @Test("an archive cut inside a -lh1- member: the members before it read, the cut said once")
    func cutInside() throws {
        let folder = try TemporaryFolder()
        let members = [
            LZHWriter.Member(path: Array("first.mid".utf8), data: Self.song, method: .lh1),
            LZHWriter.Member(path: Array("cut.mid".utf8), data: LH1EncoderTests.noise(5_000, seed: 3), method: .lh1),
        ]
        let whole = Self.archive(members)
        let path = try folder.create("cut.lzh", Array(whole.prefix(whole.count - 2_000)))
        let archive = try Archive.open(FilePath(path), memberLimit: Self.limit)
        #expect(ArchiveTests.names(archive) == ["first.mid"])
        #expect(archive.warnings.map(\.description) == ["damaged: the archive ends inside cut.mid; the files before it kept"])
    }

    @Test("a -lh1- member that decompresses past the limit (1 MB of zeros in 20 KB) is left out as it grows past it, said once; the rest read")
    func pastTheLimit() throws {
        let folder = try TemporaryFolder()
        let zeros = LZHWriter.Member(path: Array("zeros.mid".utf8), data: [UInt8](repeating: 0, count: 1 << 20), method: .lh1)
        #expect(zeros.packed.count < 40_000)
        let members = [zeros, LZHWriter.Member(path: Array("song.mid".utf8), data: Self.song, method: .lh1)]
        let path = try folder.create("bomb.lzh", Self.archive(members))
        let limit = 64 << 10
        let archive = try Archive.open(FilePath(path), memberLimit: limit)
        #expect(ArchiveTests.names(archive) == ["song.mid"])
        #expect(archive.warnings == [.memberTooLarge(FilePath("zeros.mid"), limit: limit)])
        #expect(throws: ArchiveError.memberTooLarge(limit: limit)) { try ArchivedPath(FilePath(path + "/zeros.mid"))?.read(memberLimit: limit) }
    }
}
