import AudioOutput
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Archives as folders, through the commands a person runs on a pack of songs: judged by the files
/// written (byte for byte, since old archives' names are not UTF-8), by what is printed, and by
/// sound against the same songs unpacked.
@Suite("Archives as folders, through the commands")
struct ArchiveCommandTests {
    /// 32-bit float, so that a member and its song unpacked can be compared to the sample.
    static let options = ["--bits", "32f", "--soundfont", Fixtures.soundFont, "--tail", "1", "--jobs", "1"]

    /// Names as a Japanese Windows archiver stored them, in Shift-JIS.
    enum ShiftJIS {
        /// ショパン
        static let chopin: [UInt8] = [0x83, 0x56, 0x83, 0x87, 0x83, 0x70, 0x83, 0x93]
        /// バラード
        static let ballade: [UInt8] = [0x83, 0x6F, 0x83, 0x89, 0x81, 0x5B, 0x83, 0x68]
        /// 表: its second byte is 0x5C, a backslash when read as bytes.
        static let table: [UInt8] = [0x95, 0x5C]
        /// ソナタ: ソ ends in 0x5C too.
        static let sonata: [UInt8] = [0x83, 0x5C, 0x83, 0x69, 0x83, 0x5E]
    }

    static let slash = [UInt8(ascii: "/")]

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Two seconds of notes of its own from `firstNote`: two songs mixed up cannot sound alike.
    static func song(_ firstNote: UInt8, title: String) -> [UInt8] {
        Songs.staircase(seconds: 2, firstNote: firstNote, title: title)
    }

    /// `song` written unpacked and rendered alone: the samples a member holding it must render to.
    static func unpackedSamples(_ sandbox: Sandbox, _ name: String, _ song: [UInt8]) throws -> [Float] {
        try sandbox.write("unpacked/" + name, song)
        let rendered = try sandbox.run(["render", "unpacked/" + name, "-o", "unpacked/" + name + ".wav"] + options)
        try #require(rendered.succeeded, "\(rendered)")
        return try StemRenderTests.samples(sandbox, "unpacked/" + name + ".wav")
    }

    /// Expects `out/OUTPUT`, rendered from a member holding `song`, to hold the samples of `song`
    /// written unpacked as `name` and rendered alone (nothing is said of an output not written:
    /// the caller's check of the outputs says it).
    static func expectSoundsAsUnpacked(
        _ sandbox: Sandbox, _ output: String, _ song: [UInt8], unpackedAs name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard sandbox.exists("out/" + output) else { return }
        let packed = try StemRenderTests.samples(sandbox, "out/" + output)
        let unpacked = try unpackedSamples(sandbox, name, song)
        #expect(
            packed.count > 44_100 && packed == unpacked,
            "\(output) renders \(StemRenderTests.residualDecibels(packed, unpacked)) dB from its song unpacked", sourceLocation: sourceLocation)
    }

    /// The samples of an audio file named by bytes, which a String cannot carry when they are not UTF-8.
    static func samples(atBytes path: [UInt8]) throws -> [Float] {
        let filePath = NonUTF8Names.cString(path).withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
        return try AudioFileReader(path: filePath).readAll()
    }

    /// Every file under `folder`, as sorted relative paths of bytes: FileManager cannot list names
    /// that are not UTF-8 as they are.
    static func files(under folder: [UInt8]) -> [[UInt8]] {
        guard let directory = opendir(NonUTF8Names.cString(folder)) else { return [] }
        defer { closedir(directory) }
        var found: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name != [UInt8(ascii: ".")], name != [UInt8(ascii: "."), UInt8(ascii: ".")] else { continue }
            var info = stat()
            guard lstat(NonUTF8Names.cString(folder + slash + name), &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                found += files(under: folder + slash + name).map { name + slash + $0 }
            } else {
                found.append(name)
            }
        }
        return found.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Paths of bytes as a test's message shows them: UTF-8 where they are, else escaped.
    static func shown(_ paths: [[UInt8]]) -> String {
        paths.map { path in
            String(validating: path, as: UTF8.self) ?? path.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
        }.joined(separator: ", ")
    }

    @Test(
        "render of a ZIP with a folder named in Shift-JIS (no UTF-8 flag) and one in flagged UTF-8: the outputs mirror its folders with the same name bytes, and sound as the songs unpacked, to the sample"
    )
    func renderMirrorsTheArchivesFolders() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let ballade = Self.song(60, title: "Ballade No.1")
        let clair = Self.song(67, title: "Clair de lune")
        var zip = ZIPWriter()
        zip.add(ZIPWriter.Member(name: ShiftJIS.chopin + Self.slash))
        zip.add(ZIPWriter.Member(name: ShiftJIS.chopin + Self.slash + ShiftJIS.ballade + Self.bytes(".mid"), data: ballade))
        zip.add(name: "ドビュッシー/月の光.mid", data: clair)
        try sandbox.write("pack.zip", zip.encode())

        let render = try sandbox.run(["render", "pack.zip", "-o", "out"] + Self.options)
        #expect(render.succeeded && render.stderr.isEmpty, "\(render)")
        let shiftJISOutput = ShiftJIS.chopin + Self.slash + ShiftJIS.ballade + Self.bytes(".wav")
        let utf8Output = Self.bytes("ドビュッシー/月の光.wav")
        let outputs = Self.files(under: Self.bytes(sandbox.path("out")))
        let expected = [shiftJISOutput, utf8Output].sorted { $0.lexicographicallyPrecedes($1) }
        #expect(outputs == expected, "out holds \(Self.shown(outputs)), not \(Self.shown(expected))")
        #expect(render.stdout.contains("out/ショパン/バラード.wav (") && render.stdout.contains("out/ドビュッシー/月の光.wav ("), "\(render)")

        let out = Self.bytes(sandbox.path("out")) + Self.slash
        let packedBallade = try Self.samples(atBytes: out + shiftJISOutput)
        let unpackedBallade = try Self.unpackedSamples(sandbox, "ballade.mid", ballade)
        #expect(
            packedBallade.count > 44_100 && packedBallade == unpackedBallade,
            "the Shift-JIS member renders \(StemRenderTests.residualDecibels(packedBallade, unpackedBallade)) dB from its song unpacked")
        let packedClair = try Self.samples(atBytes: out + utf8Output)
        let unpackedClair = try Self.unpackedSamples(sandbox, "clair.mid", clair)
        #expect(
            packedClair.count > 44_100 && packedClair == unpackedClair,
            "the UTF-8 member renders \(StemRenderTests.residualDecibels(packedClair, unpackedClair)) dB from its song unpacked")
    }

    @Test(
        "info of a song in a ZIP prints what info of it unpacked prints but for the path; info of the ZIP reports each song in it; a name not in it is one error line and status 1"
    )
    func info() throws {
        let sandbox = try Sandbox()
        let ballade = Fixtures.song(title: "Ballade in G minor")
        var zip = ZIPWriter()
        zip.add(name: "Chopin/ballade.mid", data: ballade)
        zip.add(name: "nocturne.mid", data: Fixtures.song(beats: 5, title: "Nocturne in E-flat"))
        zip.add(name: "readme.txt", data: Self.bytes("not a song"))
        try sandbox.write("pack.zip", zip.encode())
        try sandbox.write("ballade.mid", ballade)

        let member = try sandbox.run(["info", "pack.zip/Chopin/ballade.mid"])
        let unpacked = try sandbox.run(["info", "ballade.mid"])
        #expect(member.succeeded && member.stderr.isEmpty, "\(member)")
        #expect(unpacked.succeeded, "\(unpacked)")
        let memberBlocks = InfoCommandTests.blocks(member.stdoutLines)
        let unpackedBlocks = InfoCommandTests.blocks(unpacked.stdoutLines)
        #expect(memberBlocks.map(\.path) == ["pack.zip/Chopin/ballade.mid"], "\(member)")
        #expect(unpackedBlocks.map(\.path) == ["ballade.mid"], "\(unpacked)")
        #expect(
            memberBlocks.first?.lines == unpackedBlocks.first?.lines && memberBlocks.first?.lines.isEmpty == false,
            "\(member)\n\(unpacked)")

        let whole = try sandbox.run(["info", "pack.zip"])
        #expect(whole.succeeded && whole.stderr.isEmpty, "\(whole)")
        let blocks = InfoCommandTests.blocks(whole.stdoutLines)
        #expect(blocks.map(\.path) == ["pack.zip/Chopin/ballade.mid", "pack.zip/nocturne.mid"], "\(whole)")
        #expect(blocks.map { InfoCommandTests.field("Title", in: $0.lines) } == ["Ballade in G minor", "Nocturne in E-flat"], "\(whole)")

        let missing = try sandbox.run(["info", "pack.zip/missing.mid"])
        #expect(missing.status == 1 && missing.stdout.isEmpty, "\(missing)")
        #expect(
            missing.stderrLines.count == 1 && missing.stderr.hasPrefix("smfplay: pack.zip/missing.mid: ")
                && missing.stderr.hasSuffix("no such file in the archive\n"), "\(missing)")
    }

    @Test(
        "render of an LZH archive (level-1 headers, Shift-JIS names with a 0x5C second byte, as 表 and ソナタ): each song renders, named whole in UTF-8, as it sounds unpacked"
    )
    func lzhWithShiftJISNames() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let table = Self.song(62, title: "Hyou")
        let sonata = Self.song(69, title: "Sonata")
        var lzh = LZHWriter(level: .level1)
        lzh.add(LZHWriter.Member(path: ShiftJIS.chopin + Self.slash))
        lzh.add(LZHWriter.Member(path: ShiftJIS.chopin + Self.slash + ShiftJIS.table + Self.bytes(".mid"), data: table))
        lzh.add(LZHWriter.Member(path: ShiftJIS.sonata + Self.bytes(".mid"), data: sonata))
        try sandbox.write("pack.lzh", lzh.encode())

        let render = try sandbox.run(["render", "pack.lzh", "-o", "out"] + Self.options)
        #expect(render.succeeded && render.stderr.isEmpty, "\(render)")
        let outputs = Self.files(under: Self.bytes(sandbox.path("out")))
        let expected = [Self.bytes("ショパン/表.wav"), Self.bytes("ソナタ.wav")].sorted { $0.lexicographicallyPrecedes($1) }
        #expect(outputs == expected, "out holds \(Self.shown(outputs)), not \(Self.shown(expected))")
        try Self.expectSoundsAsUnpacked(sandbox, "ショパン/表.wav", table, unpackedAs: "table.mid")
        try Self.expectSoundsAsUnpacked(sandbox, "ソナタ.wav", sonata, unpackedAs: "sonata.mid")
    }

    @Test(
        "a member's name that is not UTF-8 reads as Shift-JIS by default and in the encoding --text-encoding or text_encoding names (cp1252), as the songs' texts do"
    )
    func memberNamesInTheChosenEncoding() throws {
        let sandbox = try Sandbox()
        var zip = ZIPWriter()
        // Café in Windows-1252, as a Western archiver without the UTF-8 flag stores it.
        zip.add(ZIPWriter.Member(name: Self.bytes("Caf") + [0xE9] + Self.bytes("/song.mid"), data: Fixtures.song(title: "Valse")))
        zip.add(ZIPWriter.Member(name: ShiftJIS.chopin + Self.bytes("/op23.mid"), data: Fixtures.song(title: "Ballade")))
        try sandbox.write("pack.zip", zip.encode())
        try sandbox.write("cp1252.toml", Self.bytes("text_encoding = \"cp1252\"\n"))

        func paths(_ arguments: [String]) throws -> [String] {
            let result = try sandbox.run(["info", "pack.zip"] + arguments)
            #expect(result.succeeded, "\(result)")
            return InfoCommandTests.blocks(result.stdoutLines).map(\.path)
        }
        #expect(try paths([]) == ["pack.zip/Caf\\xE9/song.mid", "pack.zip/ショパン/op23.mid"])
        #expect(try paths(["--text-encoding", "cp1252"]).first == "pack.zip/Café/song.mid")
        #expect(try paths(["--config", "cp1252.toml"]).first == "pack.zip/Café/song.mid")
        let undecoded = ["pack.zip/Caf\\xE9/song.mid", "pack.zip/\\x83V\\x83\\x87\\x83p\\x83\\x93/op23.mid"]
        #expect(try paths(["--text-encoding", "utf-8"]).sorted() == undecoded)
        // A render's warnings name the member as info does (they printed its bytes lossily as UTF-8).
        let render = try sandbox.run(["render", "pack.zip", "-o", "out", "--loops", "1"] + Self.options)
        #expect(render.succeeded && render.stderr.contains("pack.zip/ショパン/op23.mid: warning: it has no loop marks"), "\(render)")
    }

    @Test(
        "index and search over a library holding a ZIP: a song in it is found by its title and by its folder's Shift-JIS name, and the path printed opens in info"
    )
    func indexAndSearch() throws {
        let sandbox = try Sandbox()
        var zip = ZIPWriter()
        zip.add(ZIPWriter.Member(name: ShiftJIS.chopin + Self.slash + Self.bytes("op23.mid"), data: Fixtures.song(title: "Ballade in G minor")))
        zip.add(name: "Satie/gnossienne.mid", data: Fixtures.song(title: "Gnossienne No.1"))
        try sandbox.write("Library/Piano/pack.zip", zip.encode())
        try sandbox.write("Library/Bach/invention.mid", Fixtures.song(title: "Invention No.1"))

        let index = try sandbox.run(["index", "--library", "Library"])
        #expect(index.succeeded && index.stdout.contains("3 MIDI files indexed (3 added"), "\(index)")
        let ballade =
            Self.bytes(sandbox.path("Library/Piano/pack.zip")) + Self.slash + ShiftJIS.chopin + Self.slash + Self.bytes("op23.mid")
        let byTitle = try sandbox.run(["search", "ballade", "--library", "Library"])
        #expect(byTitle.succeeded && Array(byTitle.standardOutput) == ballade + [0x0A], "\(byTitle)")
        let byFolder = try sandbox.run(["search", "ショパン", "--library", "Library"])
        #expect(byFolder.succeeded && Array(byFolder.standardOutput) == ballade + [0x0A], "\(byFolder)")

        // The path exactly as search printed it, its Shift-JIS bytes through the shell.
        let printed = Array(byTitle.standardOutput.dropLast())
        let info = try sandbox.runThroughShell("info \"$(printf '\(NonUTF8Names.printfEscaped(printed))')\"")
        #expect(info.succeeded && info.stderr.isEmpty, "\(info)")
        let blocks = InfoCommandTests.blocks(info.stdoutLines)
        #expect(blocks.map(\.path) == [sandbox.path("Library/Piano/pack.zip") + "/ショパン/op23.mid"], "\(info)")
        #expect(InfoCommandTests.field("Title", in: blocks.first?.lines ?? []) == "Ballade in G minor", "\(info)")
    }

    @Test(
        "render of a ZIP with members named ../evil.mid and by an absolute path, and an encrypted one, beside a song: the song renders, nothing is written outside the output folder, each left-out member is named once with the archive, status 1"
    )
    func hostileMembers() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let good = Self.song(64, title: "Good")
        let evil = Self.song(40, title: "Evil")
        let absolute = sandbox.root + "/outside/evil.mid"
        var zip = ZIPWriter()
        zip.add(name: "../evil.mid", data: evil)
        zip.add(name: absolute, data: evil)
        zip.add(ZIPWriter.Member(name: Self.bytes("locked.mid"), data: [UInt8](repeating: 0x5A, count: 12) + evil, isEncrypted: true))
        zip.add(name: "good.mid", data: good)
        try sandbox.write("hostile.zip", zip.encode())

        let render = try sandbox.run(["render", "hostile.zip", "-o", "out"] + Self.options)
        #expect(render.status == 1, "\(render)")
        #expect(sandbox.files(under: "out") == ["good.wav"], "\(render)")
        let everything = sandbox.files(under: sandbox.root)
        #expect(!everything.contains { $0.contains("evil") || $0.contains("locked") }, "\(everything)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/outside"), "\(everything)")
        for name in ["../evil.mid", absolute, "locked.mid"] {
            let lines = render.stderrLines.filter { $0.contains("hostile.zip: \(name): ") }
            #expect(lines.count == 1, "\(name) is not named once with the archive: \(render)")
        }
        #expect(render.stderrLines.count == 3, "\(render)")
        try Self.expectSoundsAsUnpacked(sandbox, "good.wav", good, unpackedAs: "good.mid")
    }

    @Test(
        "an LZH inside a ZIP: render of the ZIP puts its song under out/packs/inner.lzh/, sounding as unpacked, and info opens it by the path through both"
    )
    func archiveInAnArchive() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let song = Self.song(65, title: "Inner song")
        var lzh = LZHWriter(level: .level2)
        lzh.add(path: "song.mid", data: song)
        var zip = ZIPWriter()
        zip.add(name: "packs/inner.lzh", data: lzh.encode())
        try sandbox.write("outer.zip", zip.encode())

        let render = try sandbox.run(["render", "outer.zip", "-o", "out"] + Self.options)
        #expect(render.succeeded && render.stderr.isEmpty, "\(render)")
        #expect(sandbox.files(under: "out") == ["packs/inner.lzh/song.wav"], "\(render)")
        try Self.expectSoundsAsUnpacked(sandbox, "packs/inner.lzh/song.wav", song, unpackedAs: "song.mid")

        let info = try sandbox.run(["info", "outer.zip/packs/inner.lzh/song.mid"])
        #expect(info.succeeded && info.stderr.isEmpty, "\(info)")
        let blocks = InfoCommandTests.blocks(info.stdoutLines)
        #expect(blocks.map(\.path) == ["outer.zip/packs/inner.lzh/song.mid"], "\(info)")
        #expect(InfoCommandTests.field("Title", in: blocks.first?.lines ?? []) == "Inner song", "\(info)")
    }
}
