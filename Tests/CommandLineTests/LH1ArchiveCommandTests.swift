import Foundation
import TestSupport
import Testing

/// An archive as LHarc 1 made them (1988-1990): level-0 headers, members packed by `-lh1-`, which
/// libarchive lists but does not decode (liblhasa does), Shift-JIS names with a 0x5C byte in a
/// nested folder. Every command that reads a song reads its members as it reads the songs unpacked.
@Suite("LHarc 1 (-lh1-) archives, through the commands")
struct LH1ArchiveCommandTests {
    static let table = ArchiveCommandTests.song(62, title: "Hyou")
    static let sonata = ArchiveCommandTests.song(69, title: "Sonata")
    /// ショパン/練習曲/表.mid (表 ends in 0x5C) and ソナタ.mid (so does ソ), in Shift-JIS.
    static let tablePath = Array("ショパン/練習曲/表.mid".data(using: .shiftJIS)!)
    static let sonataPath = Array("ソナタ.mid".data(using: .shiftJIS)!)

    static func archive() -> [UInt8] {
        var lzh = LZHWriter(level: .level0)
        lzh.add(LZHWriter.Member(path: tablePath, data: table, method: .lh1))
        lzh.add(LZHWriter.Member(path: sonataPath, data: sonata, method: .lh1))
        return lzh.encode()
    }

    @Test(
        "render of an -lh1- LZH mirrors its Shift-JIS folders, named whole in UTF-8, and each song sounds as it does unpacked, to the sample")
    func render() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("pack.lzh", Self.archive())
        let render = try sandbox.run(["render", "pack.lzh", "-o", "out"] + ArchiveCommandTests.options)
        #expect(render.succeeded && render.stderr.isEmpty, "\(render)")
        #expect(sandbox.files(under: "out").sorted() == ["ショパン/練習曲/表.wav", "ソナタ.wav"], "\(render)")
        try ArchiveCommandTests.expectSoundsAsUnpacked(sandbox, "ショパン/練習曲/表.wav", Self.table, unpackedAs: "table.mid")
        try ArchiveCommandTests.expectSoundsAsUnpacked(sandbox, "ソナタ.wav", Self.sonata, unpackedAs: "sonata.mid")
    }

    @Test(
        "info of an -lh1- LZH reports each song; info of a member prints what info of the song unpacked prints but for the path; its thumbnail is the unpacked song's, pixel for pixel"
    )
    func infoAndThumbnail() throws {
        let sandbox = try Sandbox()
        try sandbox.write("pack.lzh", Self.archive())
        try sandbox.write("table.mid", Self.table)
        let whole = try sandbox.run(["info", "pack.lzh"])
        #expect(whole.succeeded && whole.stderr.isEmpty, "\(whole)")
        let blocks = InfoCommandTests.blocks(whole.stdoutLines)
        #expect(blocks.map(\.path) == ["pack.lzh/ショパン/練習曲/表.mid", "pack.lzh/ソナタ.mid"], "\(whole)")
        #expect(blocks.map { InfoCommandTests.field("Title", in: $0.lines) } == ["Hyou", "Sonata"], "\(whole)")

        let member = try sandbox.run(["info", "pack.lzh/ショパン/練習曲/表.mid"])
        let unpacked = try sandbox.run(["info", "table.mid"])
        #expect(member.succeeded && member.stderr.isEmpty && unpacked.succeeded, "\(member)\n\(unpacked)")
        let memberLines = InfoCommandTests.blocks(member.stdoutLines).first?.lines
        #expect(memberLines == InfoCommandTests.blocks(unpacked.stdoutLines).first?.lines && memberLines?.isEmpty == false, "\(member)\n\(unpacked)")

        let memberThumbnail = try sandbox.run(["thumbnail", "pack.lzh/ショパン/練習曲/表.mid", "member.png"])
        let unpackedThumbnail = try sandbox.run(["thumbnail", "table.mid", "unpacked.png"])
        #expect(memberThumbnail.succeeded && unpackedThumbnail.succeeded, "\(memberThumbnail)\n\(unpackedThumbnail)")
        let (packedImage, plainImage) = (try DecodedPNG(path: sandbox.path("member.png")), try DecodedPNG(path: sandbox.path("unpacked.png")))
        #expect(packedImage.width == plainImage.width && packedImage.pixels == plainImage.pixels && Set(plainImage.pixels).count > 1)
    }

    @Test("index and search over a library holding an -lh1- LZH: its songs are indexed, found by title and by their Shift-JIS folder")
    func indexAndSearch() throws {
        let sandbox = try Sandbox()
        try sandbox.write("Library/Piano/pack.lzh", Self.archive())
        try sandbox.write("Library/Bach/invention.mid", Fixtures.song(title: "Invention No.1"))
        let index = try sandbox.run(["index", "--library", "Library"])
        #expect(index.succeeded && index.stdout.contains("3 MIDI files indexed (3 added"), "\(index)")
        let table = sandbox.path("Library/Piano/pack.lzh") + "/ショパン/練習曲/表.mid"
        let byTitle = try sandbox.run(["search", "hyou", "--library", "Library"])
        #expect(byTitle.succeeded && byTitle.stdoutLines == [table], "\(byTitle)")
        let byFolder = try sandbox.run(["search", "練習曲", "--library", "Library"])
        #expect(byFolder.succeeded && byFolder.stdoutLines == [table], "\(byFolder)")
    }

    @Test(
        "a damaged -lh1- member beside a good one: render renders the good one and names the damaged one once with the archive, status 1")
    func damagedMember() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        var lzh = LZHWriter(level: .level0)
        var damaged = LZHWriter.Member(path: Self.tablePath, data: Self.table, method: .lh1)
        damaged.packedInstead = Array(damaged.packed.prefix(damaged.packed.count / 2))
        lzh.add(damaged)
        lzh.add(LZHWriter.Member(path: Self.sonataPath, data: Self.sonata, method: .lh1))
        try sandbox.write("pack.lzh", lzh.encode())
        let render = try sandbox.run(["render", "pack.lzh", "-o", "out"] + ArchiveCommandTests.options)
        #expect(render.status == 1 && sandbox.files(under: "out") == ["ソナタ.wav"], "\(render)")
        #expect(
            render.stderrLines.count == 1 && render.stderr.contains("pack.lzh: ショパン/練習曲/表.mid: damaged: its -lh1- data decodes to "),
            "\(render)")
    }
}
