import Dispatch
import Foundation
import TestSupport
import Testing

/// `smfplay import`: where copies go (the library's Inbox from the configuration or the music
/// folder, or --into), what is refused, and names that are taken, even by another import running
/// at the same time.
@Suite("smfplay import")
struct ImportCommandTests {
    @Test("files are copied into ~/Music/MIDI/Inbox by default, each reported with where it went")
    func defaultInbox() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(title: "one"))
        try sandbox.write("Downloads/Prélude.MID", Fixtures.song(title: "two"))
        let result = try sandbox.run(["import", "song.mid", "Downloads/Prélude.MID"])
        #expect(result.succeeded, "\(result)")
        let inbox = sandbox.home + "/Music/MIDI/Inbox"
        #expect(result.stdoutLines == ["song.mid → \(inbox)/song.mid", "Downloads/Prélude.MID → \(inbox)/Prélude.MID"], "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(sandbox.files(under: inbox) == ["Prélude.MID", "song.mid"])
        #expect(try sandbox.contents(inbox + "/song.mid") == Data(Fixtures.song(title: "one")))
        // The originals stay.
        #expect(sandbox.exists("song.mid") && sandbox.exists("Downloads/Prélude.MID"))
    }

    @Test("the music folder comes from ~/.config/user-dirs.dirs, the library from the configuration's library key")
    func libraryFromConfiguration() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.write(sandbox.configHome + "/user-dirs.dirs", text: "XDG_MUSIC_DIR=\"$HOME/Musik\"\n")
        let musicFolder = try sandbox.run(["import", "song.mid"])
        #expect(musicFolder.succeeded, "\(musicFolder)")
        #expect(sandbox.files(under: sandbox.home + "/Musik/MIDI/Inbox") == ["song.mid"])

        try sandbox.writeUserConfiguration("library = \"~/Sammlung\"\n")
        let configured = try sandbox.run(["import", "song.mid"])
        #expect(configured.succeeded, "\(configured)")
        #expect(sandbox.files(under: sandbox.home + "/Sammlung/Inbox") == ["song.mid"])

        let option = try sandbox.run(["import", "song.mid", "--library", "Elsewhere"])
        #expect(option.succeeded, "\(option)")
        #expect(sandbox.files(under: "Elsewhere/Inbox") == ["song.mid"])
    }

    @Test("--into puts the copies in the folder given, made if missing, and needs no configuration")
    func into() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        // A configuration it cannot use does not matter when it is not needed.
        try sandbox.writeUserConfiguration("library = \"relative\"\n")
        let result = try sandbox.run(["import", "song.mid", "--into", "Sorted/Bach"])
        #expect(result.succeeded, "\(result)")
        #expect(result.stdoutLines == ["song.mid → Sorted/Bach/song.mid"], "\(result)")
        #expect(sandbox.files(under: "Sorted/Bach") == ["song.mid"])
        // Without --into the library is needed, and the configuration's error stops the command.
        let unconfigured = try sandbox.run(["import", "song.mid"])
        #expect(unconfigured.status == 1, "\(unconfigured)")
        #expect(unconfigured.stderrLines.count == 1 && unconfigured.stderr.contains("'library'"), "\(unconfigured)")
    }

    @Test("a name in use gets a number; the file that had it is left as it was")
    func takenName() throws {
        let sandbox = try Sandbox()
        try sandbox.write("Inbox/Song.mid", Fixtures.song(title: "old"))
        try sandbox.write("new/Song.mid", Fixtures.song(title: "new"))
        let result = try sandbox.run(["import", "new/Song.mid", "--into", "Inbox"])
        #expect(result.succeeded, "\(result)")
        #expect(result.stdoutLines == ["new/Song.mid → Inbox/Song (2).mid"], "\(result)")
        #expect(try sandbox.contents("Inbox/Song.mid") == Data(Fixtures.song(title: "old")))
        #expect(try sandbox.contents("Inbox/Song (2).mid") == Data(Fixtures.song(title: "new")))
    }

    @Test("a file that is not MIDI is refused in one line naming it; the others are imported; the status is 1")
    func refusesNonMIDI() throws {
        let sandbox = try Sandbox()
        try sandbox.write("a.mid", Fixtures.song(title: "a"))
        try sandbox.write("page.mid", text: "<html>404 Not Found</html>\n")
        try sandbox.write("misnamed.bin", Fixtures.song(title: "b"))
        let result = try sandbox.run(["import", "a.mid", "page.mid", "missing.mid", "misnamed.bin", "--into", "Inbox"])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderrLines == [
                "smfplay: page.mid: not a MIDI file (it starts with none of MThd, a RIFF RMID header, SMF2CLIP, MUS, an XMI FORM, HMIMIDIP, HMI-MIDISONG and a Recomposer header); not imported",
                "smfplay: missing.mid: cannot read: no such file or directory; not imported",
            ], "\(result)")
        #expect(result.stdoutLines == ["a.mid → Inbox/a.mid", "misnamed.bin → Inbox/misnamed.bin"], "\(result)")
        #expect(sandbox.files(under: "Inbox") == ["a.mid", "misnamed.bin"])
    }

    @Test("a folder that cannot be made is said once, with how many more files it stopped; the status is 1")
    func unwritableFolderSaidOnce() throws {
        let sandbox = try Sandbox()
        for name in ["a", "b", "c"] { try sandbox.write("\(name).mid", Fixtures.song(title: name)) }
        try sandbox.write("blocker", text: "a file where the folder would go\n")
        let result = try sandbox.run(["import", "a.mid", "b.mid", "c.mid", "--into", "blocker/Inbox"])
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 2 && result.stderrLines.first?.contains("cannot write") == true, "\(result)")
        #expect(result.stderrLines.last == "smfplay: 2 more files not imported, for the same reason", "\(result)")
    }

    @Test("two imports running at once never give two files one name: every copy arrives, whole")
    func racingProcesses() throws {
        let sandbox = try Sandbox()
        let perProcess = 12
        var arguments: [[String]] = [["import", "--into", "Inbox"], ["import", "--into", "Inbox"]]
        for process in 0..<2 {
            for index in 0..<perProcess {
                let source = "from \(process)-\(index)/Song.mid"
                try sandbox.write(source, Fixtures.song(title: "\(process)-\(index)"))
                arguments[process].append(source)
            }
        }
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        let commands = arguments.map {
            Command(smfplay, arguments: $0, environment: sandbox.environment, workingDirectory: URL(fileURLWithPath: sandbox.work), timeLimit: 60)
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { process in
            results.append(Swift.Result { try commands[process].run() })
        }
        for result in results.all {
            let run = try result.get()
            #expect(run.succeeded, "\(run)")
        }
        let names = sandbox.files(under: "Inbox")
        #expect(names == (["Song.mid"] + (2...(2 * perProcess)).map { "Song (\($0)).mid" }).sorted())
        let contents = try Set(names.map { try sandbox.contents("Inbox/" + $0) })
        let expected = Set((0..<2).flatMap { process in (0..<perProcess).map { Data(Fixtures.song(title: "\(process)-\($0)")) } })
        #expect(contents == expected)
    }

    @Test(
        "an archive gives its songs, each copied on its own (a Shift-JIS name as its bytes); a member named alone is copied; what the archive left out is said and the status is 1"
    )
    func archive() throws {
        let sandbox = try Sandbox()
        let japanese = Array("曲/夜想曲.mid".data(using: .shiftJIS)!)
        var zip = ZIPWriter()
        zip.add(ZIPWriter.Member(name: Array("Bach/one.mid".utf8), data: Fixtures.song(title: "one")))
        zip.add(ZIPWriter.Member(name: japanese, data: Fixtures.song(title: "two")))
        zip.add(ZIPWriter.Member(name: Array("readme.txt".utf8), data: Array("not a song".utf8)))
        try sandbox.write("pack.zip", zip.encode())
        let imported = try sandbox.run(["import", "pack.zip", "--into", "in"])
        #expect(imported.succeeded && imported.stderr.isEmpty, "\(imported)")
        #expect(imported.stdoutLines == ["pack.zip/Bach/one.mid → in/one.mid", "pack.zip/曲/夜想曲.mid → in/夜想曲.mid"], "\(imported)")
        // The copy's name is the member's Shift-JIS bytes, as an archive unpacked on Linux gives it.
        let copied = (Array(sandbox.path("in/").utf8) + Array("夜想曲.mid".data(using: .shiftJIS)!) + [0]).map { CChar(bitPattern: $0) }
        #expect(access(copied, F_OK) == 0)
        #expect(try sandbox.contents("in/one.mid") == Data(Fixtures.song(title: "one")))
        let alone = try sandbox.run(["import", "pack.zip/Bach/one.mid", "--into", "in"])
        #expect(alone.succeeded && alone.stdoutLines == ["pack.zip/Bach/one.mid → in/one (2).mid"], "\(alone)")

        var hostile = ZIPWriter()
        hostile.add(ZIPWriter.Member(name: Array("../evil.mid".utf8), data: Fixtures.song()))
        hostile.add(ZIPWriter.Member(name: Array("good.mid".utf8), data: Fixtures.song()))
        try sandbox.write("hostile.zip", hostile.encode())
        let refused = try sandbox.run(["import", "hostile.zip", "--into", "in"])
        #expect(
            refused.status == 1 && refused.stderr == "smfplay: hostile.zip: ../evil.mid: a name that leads outside the archive, left out\n",
            "\(refused)")
        #expect(sandbox.exists("in/good.mid") && !sandbox.exists("evil.mid"))
    }

    @Test("--help describes the command and --into")
    func help() throws {
        let result = try Sandbox().run(["import", "--help"])
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.contains("USAGE: smfplay import <files> ..."), "\(result)")
        #expect(result.stdout.contains("--into <folder>"), "\(result)")
    }
}

/// Runs collected from several threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Swift.Result<Command.Result, any Error>] = []

    func append(_ result: Swift.Result<Command.Result, any Error>) { lock.withLock { results.append(result) } }
    var all: [Swift.Result<Command.Result, any Error>] { lock.withLock { results } }
}
