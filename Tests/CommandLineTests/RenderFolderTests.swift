import AudioOutput
import Foundation
import SystemPackage
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smfplay render FOLDER -o FOLDER`: the output tree mirrors the input tree, and a run redoes only
/// what changed.
@Suite("smfplay render: folders")
struct RenderFolderTests {
    /// Part of the demo library, copied under a folder with a Japanese name: (library path, copy's path).
    static let pieces = [
        ("Bach/Inventions/Invention No.1 BWV 772.mid", "ライブラリ/バッハ/Inventions/Invention No.1 BWV 772.mid"),
        ("Bach/Inventions/Invention No.8 BWV 779.mid", "ライブラリ/バッハ/Inventions/Invention No.8 BWV 779.mid"),
        ("Satie/Gymnopédies/Gymnopédie No.1.mid", "ライブラリ/Satie/Gymnopédies/Gymnopédie No.1.mid"),
    ]

    /// The outputs a render of `ライブラリ` into `出力` makes, relative to `出力`.
    static let outputs = [
        "Satie/Gymnopédies/Gymnopédie No.1.flac",
        "バッハ/Inventions/Invention No.1 BWV 772.flac",
        "バッハ/Inventions/Invention No.8 BWV 779.flac",
    ].sorted()

    static let command = ["render", "ライブラリ", "-o", "出力", "--format", "flac", "--sample-rate", "22050"] + Fixtures.fast

    func modificationDates(_ sandbox: Sandbox) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for output in Self.outputs { dates[output] = try sandbox.modificationDate("出力/" + output) }
        return dates
    }

    @Test("a folder renders into the same folders under -o; a second run skips everything; --force renders again; a touched file alone is redone")
    func mirroredAndKeptUpToDate() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        for (source, copy) in Self.pieces { try sandbox.copy(Fixtures.library + "/" + source, to: copy) }

        // First run: everything, each output readable, nothing else in the tree.
        let first = try sandbox.run(Self.command)
        #expect(first.succeeded, "\(first)")
        #expect(first.stderr.isEmpty, "\(first)")
        #expect(sandbox.files(under: "出力") == Self.outputs, "\(first)")
        for output in Self.outputs {
            #expect(first.stdoutLines.filter { $0.hasPrefix("出力/\(output) (") }.count == 1, "one line for \(output): \(first)")
        }
        #expect(first.stdoutLines.count == Self.outputs.count + 1, "\(first)")
        #expect(first.stdoutLines.last?.hasPrefix("rendered 3 files in ") == true, "\(first)")
        for output in Self.outputs {
            let audio = try AudioFacts(path: sandbox.path("出力/" + output))
            #expect(audio.format == .flac && audio.sampleRate == 22_050 && audio.channels == 2, "\(output): \(audio)")
            #expect(audio.frameCount > 22_050 * 15, "\(output) is shorter than the piece: \(audio)")
        }
        let rendered = try modificationDates(sandbox)

        // Second run: nothing to do, and nothing touched.
        let second = try sandbox.run(Self.command)
        #expect(second.succeeded, "\(second)")
        #expect(second.stdoutLines.count == 1, "only the summary: \(second)")
        #expect(second.stdout.contains("3 up to date"), "\(second)")
        #expect(second.stdout.hasPrefix("rendered 0 files"), "\(second)")
        #expect(try modificationDates(sandbox) == rendered)

        // --force: everything again.
        let forced = try sandbox.run(Self.command + ["--force"])
        #expect(forced.succeeded, "\(forced)")
        #expect(forced.stdoutLines.last?.hasPrefix("rendered 3 files in ") == true, "\(forced)")
        let reRendered = try modificationDates(sandbox)
        for output in Self.outputs {
            #expect(reRendered[output]! > rendered[output]!, "\(output) was not rendered again")
        }
        #expect(sandbox.files(under: "出力") == Self.outputs)

        // One MIDI file changed: only its output is redone.
        let changed = Self.pieces[1].1
        try sandbox.setModificationDate(changed, Date())
        let third = try sandbox.run(Self.command)
        #expect(third.succeeded, "\(third)")
        #expect(third.stdoutLines.count == 2, "\(third)")
        #expect(third.stdoutLines.first?.hasPrefix("出力/バッハ/Inventions/Invention No.8 BWV 779.flac (") == true, "\(third)")
        #expect(third.stdoutLines.last?.hasPrefix("rendered 1 file, 2 up to date in ") == true, "\(third)")
        let afterTouch = try modificationDates(sandbox)
        for output in Self.outputs {
            if output.contains("No.8") {
                #expect(afterTouch[output]! > reRendered[output]!, "\(output) was not rendered again")
            } else {
                #expect(afterTouch[output] == reRendered[output], "\(output) was rendered again")
            }
        }
    }

    @Test("a broken MIDI file in the folder: reported on standard error by name, the others rendered, status 1, no output for it")
    func brokenFileInFolder() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("曲/a.mid", Fixtures.song())
        try sandbox.write("曲/broken.mid", Fixtures.truncatedEvent)
        try sandbox.write("曲/sub/b.mid", Fixtures.song())
        let result = try sandbox.run(["render", "曲", "-o", "out"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines == ["smfplay: 曲/broken.mid: " + Fixtures.truncatedEventMessage], "\(result)")
        #expect(sandbox.files(under: "out") == ["a.wav", "sub/b.wav"], "\(result)")
        #expect(result.stdoutLines.last?.hasPrefix("rendered 2 files, 1 failed in ") == true, "\(result)")
    }

    @Test(
        "two MIDI files that would make one output (a.mid and a.kar; two song.mid given from two folders): the first is rendered, the second reported by name, status 1"
    )
    func outputsThatWouldCollide() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("songs/a.mid", Fixtures.song())
        try sandbox.write("songs/a.kar", Fixtures.song(title: "Other song"))
        let folder = try sandbox.run(["render", "songs", "-o", "out"] + Fixtures.fast)
        #expect(folder.status == 1, "\(folder)")
        #expect(
            folder.stderrLines == ["smfplay: songs/a.mid: not rendered: its output, out/a.wav, is songs/a.kar's; rename one of them"], "\(folder)")
        #expect(sandbox.files(under: "out") == ["a.wav"], "\(folder)")

        try sandbox.write("one/song.mid", Fixtures.song())
        try sandbox.write("two/song.mid", Fixtures.song(title: "Other song"))
        let files = try sandbox.run(["render", "one/song.mid", "two/song.mid", "-o", "both"] + Fixtures.fast)
        #expect(files.status == 1, "\(files)")
        #expect(
            files.stderrLines == ["smfplay: two/song.mid: not rendered: its output, both/song.wav, is one/song.mid's; rename one of them"], "\(files)"
        )
        #expect(sandbox.files(under: "both") == ["song.wav"], "\(files)")
    }

    @Test("several files given one by one go straight into -o, each under its own name")
    func severalFiles() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("one/a.mid", Fixtures.song())
        try sandbox.write("two/b.mid", Fixtures.song())
        let result = try sandbox.run(["render", "one/a.mid", "two/b.mid", "-o", "out", "--format", "ogg"] + Fixtures.fast)
        #expect(result.succeeded, "\(result)")
        #expect(sandbox.files(under: "out") == ["a.ogg", "b.ogg"], "\(result)")
    }
    /// An output the user cannot have meant is a usage error, before any work: a folder of songs
    /// rendered to `-o album.flac` (it made a folder of that name), and a song in an archive without
    /// `-o` (it failed: the archive is no folder to write beside the song in).
    @Test("-o album.flac for a folder, and a song in an archive without -o: usage errors, nothing written")
    func outputsNotMeant() throws {
        let sandbox = try Sandbox()
        try sandbox.write("songs/a.mid", Fixtures.song())
        try sandbox.write("songs/b.mid", Fixtures.song())
        var zip = ZIPWriter()
        zip.add(ZIPWriter.Member(name: Array("BGM/stage1.mid".utf8), data: Fixtures.song()))
        try sandbox.write("pack.zip", zip.encode())
        let refusals: [(arguments: [String], message: String)] = [
            (
                ["songs", "-o", "album.flac"],
                "Error: -o names the folder each song's audio file goes in when rendering a folder, a playlist or several files, not album.flac"
            ),
            (["songs/a.mid", "songs/b.mid", "-o", "both.wav"], "Error: -o names the folder each song's audio file goes in"),
            (
                ["pack.zip/BGM/stage1.mid"],
                "Error: -o is needed to render pack.zip/BGM/stage1.mid: it is in pack.zip/BGM, not in a folder the audio can go in"
            ),
        ]
        for refusal in refusals {
            let result = try sandbox.run(["render"] + refusal.arguments + Fixtures.fast)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrLines.first?.hasPrefix(refusal.message) == true, "\(result)")
        }
        #expect(sandbox.files() == ["pack.zip", "songs/a.mid", "songs/b.mid"], "something was written")
        // A folder of that name that is there already is the user's: the songs go in it.
        try FileManager.default.createDirectory(atPath: sandbox.path("album.flac"), withIntermediateDirectories: true)
        try Fixtures.requireSoundFont()
        let rendered = try sandbox.run(["render", "songs", "-o", "album.flac"] + Fixtures.fast)
        #expect(rendered.succeeded, "\(rendered)")
    }
    /// A file named in Shift-JIS (an old Japanese CD-ROM's): the JSON line's `input` and `output` are
    /// decoded for reading, which names no file; `inputBytes` and `outputBytes` give the bytes, by
    /// which a program finds them.
    @Test("render --json gives a path that is not UTF-8 its bytes in base64, which name the files")
    func pathsThatAreNotUTF8HaveTheirBytes() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let stage: [UInt8] = [0x83, 0x58, 0x83, 0x65, 0x81, 0x5B, 0x83, 0x57] // ステージ
        let input = FilePath(bytes: Array(sandbox.path("songs/").utf8) + stage + Array(".mid".utf8))
        try FileManager.default.createDirectory(atPath: sandbox.path("songs"), withIntermediateDirectories: true)
        let descriptor = try FileDescriptor.open(input, .writeOnly, options: [.create], permissions: [.ownerReadWrite])
        try descriptor.closeAfter { _ = try descriptor.writeAll(Fixtures.song()) }
        let result = try sandbox.run(["render", "songs", "-o", "out", "--json"] + Fixtures.fast)
        #expect(result.succeeded, "\(result)")
        let line = try #require(result.stdoutLines.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let inputBytes = try #require((line["inputBytes"] as? String).flatMap { Data(base64Encoded: $0) }, "\(line)")
        let outputBytes = try #require((line["outputBytes"] as? String).flatMap { Data(base64Encoded: $0) }, "\(line)")
        #expect(Array(inputBytes).suffix(stage.count + 4) == stage + Array(".mid".utf8))
        // Relative, as given: under the folder smfplay ran in.
        #expect(Self.exists(FilePath(bytes: Array(sandbox.path("").utf8) + Array(outputBytes))), "the output's bytes name no file")
        // A UTF-8 path has none.
        try sandbox.write("plain/song.mid", Fixtures.song())
        let plain = try sandbox.run(["render", "plain", "-o", "plain-out", "--json"] + Fixtures.fast)
        #expect(plain.succeeded && !plain.stdout.contains("Bytes"), "\(plain)")
    }

    static func exists(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withPlatformString { stat($0, &info) } == 0
    }
}
