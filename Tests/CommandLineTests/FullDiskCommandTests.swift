import Foundation
import TestSupport
import Testing

/// A disk that fills up, for real (a small tmpfs): under render's output, the library index, the
/// resume state, import's folder and a thumbnail. Each command says so in a line naming the file, leaves nothing half-written
/// under a final name, and keeps the previous version of what it keeps.
@Suite("a full disk", .serialized, .enabled(if: SmallFileSystem.canMount, "mounting a tmpfs takes root"))
struct FullDiskCommandTests {
    @Test(
        "a batch render stops once the disk is full: the files written are whole, nothing else is left, the rest are not tried, and the report says which and why"
    )
    func renderStopsEarly() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let songs = 8
        for number in 1...songs { try sandbox.write("Songs/\(number).mid", LoudnessSong.file(volume: 100, seconds: 4)) }
        // 4 s of 16-bit stereo at 44.1 kHz with its tail: about 0.7 MB a file. Room for two.
        let disk = try SmallFileSystem(kilobytes: 1600)
        let result = try sandbox.run(
            ["render", "Songs", "-o", disk.file("Out"), "--jobs", "1", "--report", "report.jsonl"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("disk full (no space left on device)"), "\(result)")
        #expect(result.stderr.contains("the disk is full: stopped with"), "\(result)")
        let written = disk.everything().filter { $0 != "Out" }
        #expect(!written.isEmpty && written.count < songs, "\(written)")
        for name in written {
            #expect(name.hasSuffix(".wav") && !name.contains("/."), "only finished files, no temporaries: \(written)")
            let duration = try FFmpegReader.probe(disk.file(name)).duration
            #expect(duration > 3.9, "\(name) is whole: \(duration) s")
        }
        let lines = try String(contentsOfFile: sandbox.path("report.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == songs, "one line a song: \(lines)")
        let failedForFullDisk = lines.filter { $0.contains("disk full") }.count
        let notTried = lines.filter { $0.contains("not rendered: the disk was full") }.count
        #expect(failedForFullDisk == 1, "the one that found it full: \(lines)")
        #expect(notTried == songs - written.count - 1, "the rest, not tried: \(lines)")
    }

    @Test("the library index on a full disk: one line naming it, the status 1, and the index as it was")
    func indexOnFullDisk() throws {
        let sandbox = try Sandbox()
        try sandbox.write("Library/A/song.mid", Fixtures.song())
        let disk = try SmallFileSystem(kilobytes: 400)
        let environment = ["XDG_DATA_HOME": disk.path]
        let first = try sandbox.run(["index", "--library", "Library", "-q"], environment: environment)
        try #require(first.succeeded, "\(first)")
        for number in 1...40 { try sandbox.write("Library/B/\(number).mid", Fixtures.song()) }
        disk.fill()
        let full = try sandbox.run(["index", "--library", "Library", "-q"], environment: environment)
        #expect(full.status == 1, "\(full)")
        let lines = full.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("library.sqlite") && lines[0].contains("full"), "one line: \(full)")
        disk.empty()
        // The index as it was: the first song, and nothing half-written.
        let files = try Command(
            URL(fileURLWithPath: "/usr/bin/sqlite3"),
            arguments: ["-readonly", disk.file("smfplay/library.sqlite"), "SELECT CAST(path AS TEXT) FROM file"]
        ).run()
        #expect(files.succeeded && files.stdoutLines.count == 1 && files.stdout.contains("A/song.mid"), "\(files)")
        let search = try sandbox.run(["search", "song", "--library", "Library"], environment: environment)
        #expect(search.succeeded && search.stdout.contains("A/song.mid"), "\(search)")
    }

    @Test("the resume state on a full disk: play plays, says once that the state cannot be kept, and the state saved before stays")
    func resumeStateOnFullDisk() throws {
        try Fixtures.requireSoundFont()
        let server = try PulseAudioServer(sampleRate: Take.sampleRate)
        let sandbox = try Sandbox()
        try sandbox.write("first.mid", LoudnessSong.file(volume: 100, seconds: 4))
        try sandbox.write("second.mid", LoudnessSong.file(volume: 100, seconds: 4))
        let disk = try SmallFileSystem(kilobytes: 400)
        let environment = ["XDG_STATE_HOME": disk.path, "PULSE_SERVER": server.address]
        let play = ["play", "--soundfont", Fixtures.soundFont, "--tempo", "4", "--latency", "50", "--no-mpris", "--loudness", "off"]
        let first = try sandbox.run(play + ["first.mid"], environment: environment)
        try #require(first.succeeded, "\(first)")
        disk.fill()
        let second = try sandbox.run(play + ["second.mid"], environment: environment)
        #expect(second.succeeded, "it played: \(second)")
        let said = second.stderr.split(separator: "\n").filter { $0.contains("state.sqlite") }
        #expect(said.count == 1 && said[0].contains("full"), "once, naming the file: \(second)")
        disk.empty()
        let state = try Command(
            URL(fileURLWithPath: "/usr/bin/sqlite3"),
            arguments: ["-readonly", disk.file("smfplay/state.sqlite"), "SELECT CAST(path AS TEXT) FROM queue_file"]
        ).run()
        #expect(state.succeeded && state.stdout.contains("first.mid") && !state.stdout.contains("second.mid"), "\(state)")
    }

    @Test("import onto a full disk: the first file said, naming it, the rest not tried, nothing left in the folder")
    func importOnFullDisk() throws {
        let sandbox = try Sandbox()
        for number in 1...3 { try sandbox.write("Downloads/\(number).mid", Fixtures.song()) }
        let disk = try SmallFileSystem(kilobytes: 64)
        disk.fill()
        let result = try sandbox.run(["import", "Downloads/1.mid", "Downloads/2.mid", "Downloads/3.mid", "--into", disk.file("Inbox")])
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result)")
        #expect(lines.first?.contains("Inbox/1.mid: cannot write: disk full") == true, "\(result)")
        #expect(lines.last?.contains("2 more files not imported") == true, "\(result)")
        #expect(disk.everything().allSatisfy { !$0.hasSuffix(".mid") && !$0.contains("/.") }, "\(disk.everything())")
    }

    @Test("a thumbnail onto a full disk: one line naming it, nothing left")
    func thumbnailOnFullDisk() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let disk = try SmallFileSystem(kilobytes: 64)
        disk.fill()
        let result = try sandbox.run(["thumbnail", "song.mid", disk.file("song.png")])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("song.png: cannot write: disk full"), "\(result)")
        #expect(disk.everything().isEmpty, "\(disk.everything())")
    }

    @Test("stems onto a full disk: one line naming the song's stem it could not write, the status 1, and no stem left")
    func stemsOnFullDisk() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("band.mid", StemRenderTests.band)
        // Each stem: 3 s of 32-bit float stereo, about 1 MB. Room for one.
        let disk = try SmallFileSystem(kilobytes: 1600)
        let result = try sandbox.run(["render", "band.mid", "--stems", "-o", disk.file("Stems")] + StemRenderTests.options)
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("Stems/band/") && lines[0].contains("disk full"), "\(result)")
        #expect(disk.everything().allSatisfy { !$0.hasSuffix(".wav") && !$0.contains("/.") }, "\(disk.everything())")
    }

    @Test("--write-manifest onto a full disk: one line naming the manifest, the status 1, and no manifest nor temporary left")
    func manifestOnFullDisk() throws {
        let sandbox = try Sandbox()
        for number in 1...200 { try sandbox.write("Library/A folder with a long name/\(number) a song with a long name.mid", Fixtures.song()) }
        let disk = try SmallFileSystem(kilobytes: 64)
        disk.fill()
        let result = try sandbox.run(["render", "Library", "--write-manifest", disk.file("manifest.txt")])
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("manifest.txt") && lines[0].contains("disk full"), "\(result)")
        #expect(disk.everything().isEmpty, "\(disk.everything())")
    }

    @Test("--report onto a disk that fills up: the songs render, the report's file is named once, its lines are whole, and the status is 1")
    func reportOnFullDisk() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let songs = 30
        for number in 1...songs { try sandbox.write("Songs/\(number).mid", Fixtures.song()) }
        let disk = try SmallFileSystem(kilobytes: 64)
        // A page: room for some of the report's lines (about 300 bytes each), and part of another.
        disk.fill(leaving: 4096)
        let result = try sandbox.run(["render", "Songs", "-o", "Out", "--jobs", "1", "--report", disk.file("report.jsonl")] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("report.jsonl") }
        #expect(lines.count == 1 && lines[0].contains("disk full"), "\(result)")
        for number in 1...songs { #expect(FileManager.default.fileExists(atPath: sandbox.path("Out/\(number).wav")), "\(number).wav") }
        let report = try Data(contentsOf: URL(fileURLWithPath: disk.file("report.jsonl")))
        let written = report.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        #expect(report.last == UInt8(ascii: "\n") && written.count > 1 && written.count <= songs, "\(written.count - 1) lines")
        for line in written.dropLast() {
            #expect((try? JSONSerialization.jsonObject(with: Data(line))) != nil, "a line cut short: \(String(decoding: line, as: UTF8.self))")
        }
    }
}
