import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smfplay render` when the output cannot be written or the SoundFont cannot be used: one clear
/// message, a failing status, and no file left behind.
@Suite("smfplay render: failures")
struct RenderFailureTests {
    /// The lines of standard error that say something (a library's stray empty lines left out).
    static func messages(_ result: Command.Result) -> [String] {
        result.stderrLines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    @Test("-o inside a path whose parent is a regular file: one error naming it, status 1, nothing left")
    func outputUnderARegularFile() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.write("notes.txt", text: "not a folder\n")
        let result = try sandbox.run(["render", "song.mid", "-o", "notes.txt/song.wav"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(Self.messages(result).count == 1, "\(result)")
        #expect(Self.messages(result).first?.contains("notes.txt") == true, "\(result)")
        #expect(Self.messages(result).first?.contains("not a folder") == true, "\(result)")
        #expect(try sandbox.contents("notes.txt") == Data("not a folder\n".utf8))
        #expect(sandbox.files() == ["notes.txt", "song.mid"])
    }

    /// The finished file is renamed over its output: over a device or a pipe that would put a
    /// file of audio where the device was (`-o /dev/full` once did).
    @Test("-o naming a pipe (or a device): one error naming it, status 1, and the pipe is still a pipe")
    func outputThatIsAPipe() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        #expect(mkfifo(sandbox.path("pipe.wav"), 0o644) == 0)
        let result = try sandbox.run(["render", "song.mid", "-o", "pipe.wav"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(
            Self.messages(result) == [
                "smfplay: pipe.wav: cannot create the file: it is a device, a pipe or a socket, not a file: give the path of a file"
            ],
            "\(result)")
        var info = stat()
        #expect(stat(sandbox.path("pipe.wav"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(sandbox.files() == ["pipe.wav", "song.mid"])
    }

    @Test("a folder rendered into a path under a regular file: one error naming it, status 1 (not a usage error), nothing left")
    func folderOutputUnderARegularFile() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("songs/song.mid", Fixtures.song())
        try sandbox.write("notes.txt", text: "not a folder\n")
        let result = try sandbox.run(["render", "songs", "-o", "notes.txt/renders"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(Self.messages(result).count == 1, "\(result)")
        #expect(Self.messages(result).first?.hasPrefix("smfplay: ") == true, "\(result)")
        #expect(Self.messages(result).first?.contains("notes.txt") == true, "\(result)")
        #expect(!result.stderr.contains("Usage:"), "a file system problem is not a usage problem: \(result)")
        #expect(sandbox.files() == ["notes.txt", "songs/song.mid"])
    }

    /// One note, then an End of Track 268,435,455 ticks later (the longest delta time there is):
    /// 77 hours at 120 bpm, as a file damaged in one delta time would say.
    static let seventySevenHours: [UInt8] = {
        let track: [UInt8] = [0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0x2F, 0x00]
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + [0, 0, 0, UInt8(track.count)] + track
    }()

    @Test("a song that lasts more than a day as written is refused at once, named, nothing written; in a folder the rest render")
    func songLongerThanADay() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("Songs/damaged.mid", Self.seventySevenHours)
        try sandbox.write("Songs/song.mid", Fixtures.song())
        let one = try sandbox.run(["render", "Songs/damaged.mid", "-o", "damaged.wav"] + Fixtures.fast)
        #expect(one.status == 1, "\(one)")
        #expect(
            one.stderrLines.first
                == "smfplay: Songs/damaged.mid: lasts 77 hours as written, more than a day: not rendered (a damaged file, most likely)",
            "\(one)")
        let folder = try sandbox.run(["render", "Songs", "-o", "Out"] + Fixtures.fast)
        #expect(folder.status == 1 && folder.stderr.contains("damaged.mid: lasts 77 hours"), "\(folder)")
        #expect(sandbox.files() == ["Out/song.wav", "Songs/damaged.mid", "Songs/song.mid"], "\(folder)")
    }

    @Test("--soundfont /missing.sf2: an error naming it, status 1, nothing written")
    func missingSoundFont() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--soundfont", "/missing.sf2", "--tail", "0"])
        #expect(result.status == 1, "\(result)")
        #expect(Self.messages(result) == ["smfplay: --soundfont: no such file: /missing.sf2"], "\(result)")
        #expect(sandbox.files() == ["song.mid"])
    }

    @Test(
        "a SoundFont damaged inside (its outline right, its preset headers noise): one clear error naming it, status 1, nothing written, none of the libraries' noise"
    )
    func soundFontDamagedInside() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try Fixtures.requireSoundFont()
        var damaged = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.soundFont)))
        // The last chunk holds the preset, instrument and sample headers.
        for index in damaged.count - 200_000..<damaged.count { damaged[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        try sandbox.write("damaged.sf2", damaged)
        let result = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--soundfont", "./damaged.sf2", "--tail", "0"])
        #expect(result.status == 1, "\(result)")
        #expect(result.signal == nil, "\(result)")
        let messages = Self.messages(result)
        #expect(messages.count == 1, "only smfplay's own message, none of GLib's: \(result)")
        #expect(messages.first?.hasPrefix("smfplay: ") == true, "\(result)")
        #expect(
            messages.first?.hasSuffix("/damaged.sf2: cannot load SoundFont: FluidSynth refused it (a damaged .sf2/.sf3 file?)") == true, "\(result)")
        #expect(sandbox.files() == ["damaged.sf2", "song.mid"])
    }

    @Test("a SoundFont that is random bytes: one clear error naming it, status 1, nothing written")
    func corruptSoundFont() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.write("x.sf2", Fixtures.noise(count: 64 * 1024))
        let result = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--soundfont", "./x.sf2", "--tail", "0"])
        #expect(result.status == 1, "\(result)")
        #expect(result.signal == nil, "\(result)")
        let messages = Self.messages(result)
        #expect(messages.count == 1, "only smfplay's own message, no library noise: \(result)")
        #expect(messages.last?.hasPrefix("smfplay: ") == true, "\(result)")
        #expect(messages.last?.contains("x.sf2") == true, "\(result)")
        #expect(sandbox.files() == ["song.mid", "x.sf2"])
    }
}
