import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The commands that make no sound map none of the libraries that make it (LibraryLoader opens
/// each at its first use): read from the dynamic loader's own account of what it maps
/// (`LD_DEBUG=files`), and, the other way round, the commands that need a library still find it,
/// or say in one line why not.
@Suite("Libraries opened when first needed")
struct LeanStartTests {
    /// The libraries opened at their first use, by the names the dynamic loader reports.
    static let lazyLibraries = [
        "libfluidsynth.so.3", "libpulse.so.0", "libsndfile.so.1", "libsystemd.so.0", "libarchive.so.13", "libebur128.so.1", "libtag.so.1",
        "libtag_c.so.0", "liblhasa.so.0",
    ]

    /// The files `smfplay arguments` mapped, as the dynamic loader names them (`file=NAME`).
    static func mapped(_ sandbox: Sandbox, _ arguments: [String]) throws -> (result: Command.Result, files: Set<String>) {
        let result = try sandbox.run(arguments, environment: ["LD_DEBUG": "files"])
        let files = result.stderrLines.compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "\t" && $0 != ";" && $0 != "[" })
        }
        return (result, Set(files.map { ($0 as NSString).lastPathComponent }))
    }

    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("Library/song.mid", LyricsCommandTests.song(title: Array("Lean".utf8), words: [Array("Hel".utf8), Array("lo".utf8)]))
        return sandbox
    }

    @Test(
        "--version, info, lyrics, thumbnail, index and search map no sound library (FluidSynth, libpulse, libsndfile, libsystemd, libebur128, TagLib) nor libarchive",
        arguments: [
            ["--version"], ["info", "Library/song.mid"], ["lyrics", "Library/song.mid"], ["thumbnail", "Library/song.mid", "song.png"],
            ["index", "--library", "Library"], ["search", "lean", "--library", "Library"],
        ])
    func quietCommandsMapNone(arguments: [String]) throws {
        let sandbox = try Self.sandbox()
        if arguments.first == "search" { #expect(try sandbox.run(["index", "--library", "Library"]).succeeded) }
        let (result, files) = try Self.mapped(sandbox, arguments)
        #expect(result.succeeded, "\(result)")
        #expect(files.contains("libc.so.6"), "the dynamic loader's account was not read: \(files.sorted())")
        #expect(files.isDisjoint(with: Self.lazyLibraries), "\(arguments) mapped \(files.intersection(Self.lazyLibraries).sorted())")
    }

    @Test("the commands that need a library open it: render maps FluidSynth and libsndfile; info of a ZIP, libarchive (and no sound library)")
    func loudCommandsMapTheirs() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Self.sandbox()
        let render = try Self.mapped(sandbox, ["render", "Library/song.mid", "-o", "song.wav", "--soundfont", Fixtures.soundFont])
        #expect(render.result.succeeded, "\(render.result)")
        #expect(render.files.isSuperset(of: ["libfluidsynth.so.3", "libsndfile.so.1"]), "\(render.files.sorted())")

        var zip = ZIPWriter()
        zip.add(name: "song.mid", data: Fixtures.song(title: "Packed"))
        try sandbox.write("pack.zip", zip.encode())
        let info = try Self.mapped(sandbox, ["info", "pack.zip"])
        #expect(info.result.succeeded && info.result.stdout.contains("Packed"), "\(info.result)")
        #expect(info.files.contains("libarchive.so.13"), "\(info.files.sorted())")
        #expect(!info.files.contains("libfluidsynth.so.3"))
    }

    /// An LZH archive of a song stored as it is (`-lh0-`, which libarchive decodes) and one packed
    /// by LHarc 1 (`-lh1-`, which liblhasa decodes).
    static func lzh(_ sandbox: Sandbox) throws {
        var lzh = LZHWriter(level: .level1)
        lzh.add(LZHWriter.Member(path: Array("stored.mid".utf8), data: Fixtures.song(title: "Stored")))
        try sandbox.write("stored.lzh", lzh.encode())
        lzh.add(LZHWriter.Member(path: Array("packed.mid".utf8), data: Fixtures.song(title: "Packed"), method: .lh1))
        lzh.add(LZHWriter.Member(path: Array("second.mid".utf8), data: Fixtures.song(title: "Second"), method: .lh1))
        try sandbox.write("lh1.lzh", lzh.encode())
    }

    @Test("info of an LZH maps liblhasa only when a member is of a method libarchive does not decode (-lh1-)")
    func liblhasaOnlyForLH1() throws {
        let sandbox = try Self.sandbox()
        try Self.lzh(sandbox)
        let stored = try Self.mapped(sandbox, ["info", "stored.lzh"])
        #expect(stored.result.succeeded && stored.result.stdout.contains("Stored"), "\(stored.result)")
        #expect(stored.files.contains("libarchive.so.13") && !stored.files.contains("liblhasa.so.0"), "\(stored.files.sorted())")
        let packed = try Self.mapped(sandbox, ["info", "lh1.lzh"])
        #expect(packed.result.succeeded && packed.result.stdout.contains("Packed"), "\(packed.result)")
        #expect(packed.files.isSuperset(of: ["libarchive.so.13", "liblhasa.so.0"]), "\(packed.files.sorted())")
    }

    /// `smfplay arguments` in `sandbox` with the library `soname` covered by an empty file, in a
    /// mount namespace of its own (for this run only; needs root).
    static func hiding(_ soname: String, in sandbox: Sandbox, _ arguments: [String]) throws -> Command.Result {
        let library = URL(fileURLWithPath: "/lib/x86_64-linux-gnu/" + soname).resolvingSymlinksInPath().path
        try #require(FileManager.default.fileExists(atPath: library), "no \(library) on this machine")
        let smfplay = try #require(Sandbox.smfplay)
        let script = "mount --bind /dev/null \"$0\" && exec \"$@\""
        return try Command(
            URL(fileURLWithPath: "/usr/bin/unshare"), arguments: ["--mount", "sh", "-c", script, library, smfplay.path] + arguments,
            environment: sandbox.environment, workingDirectory: URL(fileURLWithPath: sandbox.work), timeLimit: 60
        ).run()
    }

    @Test("FluidSynth missing (its file hidden by an empty one): render says so in one line and fails with status 1; info, which needs none, works")
    func missingLibraryIsOneLine() throws {
        try #require(geteuid() == 0, "hiding a system library needs root (CI runs as root)")
        try Fixtures.requireSoundFont()
        let sandbox = try Self.sandbox()
        let render = try Self.hiding(
            "libfluidsynth.so.3", in: sandbox, ["render", "Library/song.mid", "-o", "song.wav", "--soundfont", Fixtures.soundFont])
        #expect(render.status == 1, "\(render)")
        #expect(
            render.stderrLines.count == 1 && render.stderr.hasPrefix("smfplay: cannot start the synthesizer: ")
                && render.stderr.contains("libfluidsynth.so.3") && render.stderr.contains("libfluidsynth3"), "\(render)")
        #expect(!sandbox.exists("song.wav"))
        let info = try Self.hiding("libfluidsynth.so.3", in: sandbox, ["info", "Library/song.mid"])
        #expect(info.succeeded && info.stdout.contains("Lean"), "\(info)")
    }

    @Test(
        "liblhasa missing: info of an -lh1- member says in one line that it cannot be decoded, naming the file and liblhasa0, status 1; the stored member beside it reads, and info of the archive names the two it leaves out in one line"
    )
    func missingLhasaIsOneLine() throws {
        try #require(geteuid() == 0, "hiding a system library needs root (CI runs as root)")
        let sandbox = try Self.sandbox()
        try Self.lzh(sandbox)
        let packed = try Self.hiding("liblhasa.so.0", in: sandbox, ["info", "lh1.lzh/packed.mid"])
        #expect(
            packed.status == 1 && packed.stdout.isEmpty && packed.stderrLines.count == 1
                && packed.stderr.hasPrefix("smfplay: lh1.lzh/packed.mid: ") && packed.stderr.contains("cannot decode -lh1- data: ")
                && packed.stderr.contains("liblhasa.so.0")
                && packed.stderr.contains("liblhasa0"), "\(packed)")
        let stored = try Self.hiding("liblhasa.so.0", in: sandbox, ["info", "lh1.lzh/stored.mid"])
        #expect(stored.succeeded && stored.stdout.contains("Stored"), "\(stored)")
        let whole = try Self.hiding("liblhasa.so.0", in: sandbox, ["info", "lh1.lzh"])
        #expect(
            whole.stdout.contains("Stored") && whole.stderrLines.count == 1
                && whole.stderr.contains("lh1.lzh: packed.mid and 1 other file: cannot decode -lh1- data: ")
                && whole.stderr.contains("liblhasa0"), "\(whole)")
    }

    @Test(
        "libebur128 missing: render --normalize of a folder and index --loudness each say once that they cannot measure loudness, and write nothing (a render wrote the songs unnormalized); a plain render works"
    )
    func missingMeterFailsMeasuring() throws {
        try #require(geteuid() == 0, "hiding a system library needs root (CI runs as root)")
        try Fixtures.requireSoundFont()
        let sandbox = try Self.sandbox()
        try sandbox.write("Library/second.mid", Fixtures.song(title: "Second"))
        let sound = ["--soundfont", Fixtures.soundFont]
        for arguments in [["render", "Library", "-o", "loud", "--normalize"], ["index", "--library", "Library", "--loudness"]] {
            let result = try Self.hiding("libebur128.so.1", in: sandbox, arguments + sound)
            #expect(
                result.status == 1 && result.stderrLines.count == 1 && result.stderr.hasPrefix("smfplay: cannot measure loudness: ")
                    && result.stderr.contains("libebur128.so.1") && result.stderr.contains("libebur128-1"), "\(result)")
        }
        #expect(!sandbox.exists("loud"))
        let plain = try Self.hiding("libebur128.so.1", in: sandbox, ["render", "Library/song.mid", "-o", "plain.wav"] + sound)
        #expect(plain.succeeded && sandbox.exists("plain.wav"), "\(plain)")
    }
}
