import Foundation
import SMF
import TestSupport
import Testing

/// `smfplay index` and `smfplay search`, as a person runs them on a library.
@Suite("smfplay index and search")
struct SearchCommandTests {
    static func library(in sandbox: Sandbox) throws {
        try sandbox.write("Library/Chopin/Ballades/Ballade No.1.mid", Fixtures.song(title: "Ballade in G minor"))
        try sandbox.write("Library/Chopin/Études/Étude Op.10 No.12.mid", Fixtures.song(title: "Revolutionary"))
        try sandbox.write("Library/ショパン/幻想即興曲.mid", Fixtures.song(title: "Fantaisie-Impromptu"))
        try sandbox.write("Library/Broken/cut.mid", Fixtures.truncatedEvent)
    }

    @Test("the first search indexes the library (saying so on standard error), later ones use the index")
    func firstSearchIndexes() throws {
        let sandbox = try Sandbox()
        try Self.library(in: sandbox)
        let first = try sandbox.run(["search", "etude", "--library", "Library"])
        #expect(first.succeeded, "\(first)")
        #expect(first.stdoutLines == [sandbox.path("Library/Chopin/Études/Étude Op.10 No.12.mid")], "\(first)")
        #expect(first.stderr.contains("not indexed yet") && first.stderr.contains("4 MIDI files indexed"), "\(first)")
        #expect(FileManager.default.fileExists(atPath: sandbox.dataHome + "/smfplay/library.sqlite"))
        let second = try sandbox.run(["search", "幻想", "--library", "Library"])
        #expect(second.stdoutLines == [sandbox.path("Library/ショパン/幻想即興曲.mid")], "\(second)")
        #expect(second.stderr.isEmpty, "\(second)")
    }

    @Test("a search of an index found ready writes nothing to it: the file's bytes are as they were")
    func searchWritesNothing() throws {
        let sandbox = try Sandbox()
        try Self.library(in: sandbox)
        #expect(try sandbox.run(["index", "--library", "Library"]).succeeded)
        let index = URL(fileURLWithPath: sandbox.dataHome + "/smfplay/library.sqlite")
        let before = try Data(contentsOf: index)
        let found = try sandbox.run(["search", "ballade", "--library", "Library"])
        #expect(found.stdoutLines == [sandbox.path("Library/Chopin/Ballades/Ballade No.1.mid")], "\(found)")
        #expect(try Data(contentsOf: index) == before)
    }

    @Test("index reports what changed; search --json carries what is known; nothing found is status 1")
    func indexAndJSON() throws {
        let sandbox = try Sandbox()
        try Self.library(in: sandbox)
        let index = try sandbox.run(["index", "--library", "Library"])
        #expect(index.succeeded, "\(index)")
        #expect(index.stdout.contains("4 MIDI files indexed (4 added, 0 changed, 0 removed, 0 unchanged, 1 not readable as MIDI)"), "\(index)")
        #expect(index.stderr.contains("cut.mid"), "\(index)")
        let again = try sandbox.run(["index", "--library", "Library"])
        #expect(again.stdout.contains("(0 added, 0 changed, 0 removed, 4 unchanged"), "\(again)")
        let json = try sandbox.run(["search", "ballade", "--json", "--library", "Library"])
        #expect(json.succeeded, "\(json)")
        let results = try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]]
        #expect(results?.count == 1 && results?.first?["title"] as? String == "Ballade in G minor", "\(json)")
        #expect(results?.first?["mode"] as? String == "gm", "\(json)")
        let none = try sandbox.run(["search", "mozart", "--library", "Library"])
        #expect(none.status == 1 && none.stdout.isEmpty && none.stderrLines == ["smfplay: nothing found"], "\(none)")
        let noneInJSON = try sandbox.run(["search", "mozart", "--json", "--library", "Library"])
        #expect(noneInJSON.status == 1 && noneInJSON.stdout == "[]\n", "\(noneInJSON)")
        let usage = try sandbox.run(["search", "--library", "Library"])
        #expect(usage.status == 64, "\(usage)")
        // Words with nothing to look for in them are no words: not a list of every file.
        for blank in [[""], ["  "], ["-"]] {
            let nothing = try sandbox.run(["search"] + blank + ["--library", "Library"])
            #expect(nothing.status == 64 && nothing.stdout.isEmpty && nothing.stderr.contains("nothing to look for in \"\(blank[0])\""), "\(nothing)")
        }
        let filtered = try sandbox.run(["search", "", "--mode", "gm", "--library", "Library"])
        #expect(filtered.succeeded && filtered.stdout.contains("Ballade No.1.mid"), "a filter still lists its files: \(filtered)")
    }

    @Test(
        "a search with options of playing and no --play (which the whole command parses) prints what one without them prints, and checks them; --json with --play is refused"
    )
    func optionsOfPlayingWithoutPlay() throws {
        let sandbox = try Sandbox()
        try Self.library(in: sandbox)
        #expect(try sandbox.run(["index", "--library", "Library"]).succeeded)
        let plain = try sandbox.run(["search", "chopin", "--library", "Library", "--limit", "1"])
        #expect(plain.succeeded && plain.stdoutLines.count == 1, "\(plain)")
        let playing = try sandbox.run(["search", "chopin", "--latency", "80", "--no-mpris", "--library", "Library", "--limit", "1"])
        #expect(playing.succeeded && playing.stdout == plain.stdout && playing.stderr == plain.stderr, "\(playing)")
        let badLatency = try sandbox.run(["search", "chopin", "--latency", "1", "--library", "Library"])
        #expect(badLatency.status == 64 && badLatency.stderr.contains("--latency must be from 5 to 2000 ms, not 1"), "\(badLatency)")
        let both = try sandbox.run(["search", "chopin", "--json", "--play", "--library", "Library"])
        #expect(both.status == 64 && both.stderr.contains("--json prints the results; it cannot go with --play"), "\(both)")
        let negative = try sandbox.run(["search", "chopin", "--limit=-1", "--library", "Library"])
        #expect(negative.status == 64 && negative.stderr.contains("--limit must be 0 (all) or more, not -1"), "\(negative)")
    }

    @Test(
        "titles are read in the configuration's text_encoding: a Shift-JIS title of kanji alone, which detection takes for Windows-1252, is found by its kanji; another encoding reads again the files whose texts it reads otherwise"
    )
    func textEncoding() throws {
        let sandbox = try Sandbox()
        let nocturne = sandbox.path("Library/Chopin/nocturne.mid")
        try sandbox.write(nocturne, LyricsCommandTests.song(title: LyricsCommandTests.nocturne, words: []))
        try sandbox.write("Library/Chopin/ballade.mid", Fixtures.song(title: "Ballade"))
        try sandbox.writeUserConfiguration("text_encoding = \"shift-jis\"\n")
        let index = try sandbox.run(["index", "--library", "Library"])
        #expect(index.succeeded && index.stdout.contains("2 MIDI files indexed (2 added"), "\(index)")
        let found = try sandbox.run(["search", "夜想曲", "--library", "Library"])
        #expect(found.succeeded && found.stdoutLines == [nocturne] && found.stderr.isEmpty, "\(found)")

        // Another encoding for once: the file with kanji is read again, the one in ASCII is not.
        let cp1252 = try sandbox.run(["index", "--library", "Library", "--text-encoding", "cp1252"])
        #expect(cp1252.stdout.contains("(0 added, 0 changed, 0 removed, 1 unchanged, 1 read again in the new text encoding)"), "\(cp1252)")
        let mojibake = try sandbox.run(["search", "夜想曲", "--library", "Library", "--text-encoding", "cp1252"])
        #expect(mojibake.status == 1 && mojibake.stdout.isEmpty, "\(mojibake)")

        // A search in the configuration's encoding brings the index back to it first, saying so.
        let again = try sandbox.run(["search", "夜想曲", "--library", "Library"])
        #expect(again.succeeded && again.stdoutLines == [nocturne], "\(again)")
        #expect(again.stderr.contains("reading them again in shift-jis first") && again.stderr.contains("1 read again"), "\(again)")
        let quiet = try sandbox.run(["search", "夜想曲", "--library", "Library"])
        #expect(quiet.stdoutLines == [nocturne] && quiet.stderr.isEmpty, "\(quiet)")
        let help = try sandbox.run(["index", "--help"])
        #expect(help.stdout.contains("--text-encoding <encoding>"), "\(help)")
    }

    @Test("a file named in Latin-1 is found by its name once the index is read in cp1252: its name is read again, though its texts are ASCII")
    func latinOneName() throws {
        let sandbox = try Sandbox()
        try sandbox.write("Library/plain.mid", Fixtures.song(title: "Plain"))
        // "Café.mid" as an old Windows program wrote it.
        let name = Array(sandbox.path("Library/").utf8) + [0x43, 0x61, 0x66, 0xE9] + Array(".mid".utf8)
        try NonUTF8Names.write(Array(Fixtures.song(title: "Song")), to: name)
        #expect(try sandbox.run(["index", "--library", "Library"]).succeeded)
        let auto = try sandbox.run(["search", "café", "--library", "Library"])
        #expect(auto.status == 1, "its byte E9 is no letter in Shift-JIS or UTF-8: \(auto)")
        let latin = try sandbox.run(["search", "cafe", "--library", "Library", "--text-encoding", "cp1252"])
        #expect(latin.succeeded && Array(latin.standardOutput) == name + [0x0A], "\(latin)")
        #expect(latin.stderr.contains("1 read again"), "\(latin)")
    }

    /// An RMID file with "Chopin" in its INFO artist only: neither its folder, name nor title says so.
    static func nocturne(in sandbox: Sandbox) throws -> String {
        let writer = RMIDWriter(texts: [.artist: Array("Chopin".utf8), .album: Array("Nocturnes".utf8), .genre: Array("Romantic".utf8)])
        return try sandbox.write("Library/Piano/Op.9 No.2.rmi", writer.encode(song: Fixtures.song(title: "Nocturne in E-flat")))
    }

    @Test("an RMID file is found by its INFO artist, and --json gives its artist, album and genre")
    func rmidArtist() throws {
        let sandbox = try Sandbox()
        try Self.library(in: sandbox)
        let nocturne = try Self.nocturne(in: sandbox)
        let found = try sandbox.run(["search", "chopin", "piano", "--library", "Library"])
        #expect(found.succeeded && found.stdoutLines == [nocturne], "\(found)")
        let json = try sandbox.run(["search", "romantic", "--json", "--library", "Library"])
        let results = try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]]
        let first = try #require(results?.first, "\(json)")
        #expect(first["artist"] as? String == "Chopin" && first["album"] as? String == "Nocturnes" && first["genre"] as? String == "Romantic")
        #expect(first["title"] as? String == "Nocturne in E-flat")
    }

    @Test("an index an earlier smfplay made opens, and search reads its RMID files again first, saying so, then finds them by artist")
    func indexMadeBeforeRMIDInfo() throws {
        let sandbox = try Sandbox()
        try Self.library(in: sandbox)
        let nocturne = try Self.nocturne(in: sandbox)
        let index = try sandbox.run(["index", "--library", "Library"])
        try #require(index.succeeded, "\(index)")
        // The index as smfplay left it before it kept RMID INFO texts: the last migration undone,
        // the full-text index's titles without the artists.
        let database = sandbox.dataHome + "/smfplay/library.sqlite"
        let undo = """
            DROP INDEX file_before_rmid_info;
            ALTER TABLE file DROP COLUMN artist; ALTER TABLE file DROP COLUMN album; ALTER TABLE file DROP COLUMN genre;
            ALTER TABLE file DROP COLUMN before_rmid_info;
            DELETE FROM grdb_migrations WHERE identifier = 'the artist, album and genre of RMID files';
            UPDATE search SET title = (SELECT lower(coalesce(title, '')) FROM file WHERE file.id = search.rowid);
            """
        let sqlite = try Command(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [database, undo], timeLimit: 60).run()
        try #require(sqlite.succeeded, "\(sqlite)")

        let found = try sandbox.run(["search", "chopin", "piano", "--library", "Library"])
        #expect(found.succeeded && found.stdoutLines == [nocturne], "\(found)")
        #expect(
            found.stderr.contains("reading RMID files again first") && found.stderr.contains("1 RMID file read again for artists and albums"),
            "\(found)")
        #expect(!found.stderr.contains("built anew") && found.stderr.contains("4 unchanged"), "the index is kept: \(found)")
        let again = try sandbox.run(["search", "chopin", "piano", "--library", "Library"])
        #expect(again.stdoutLines == [nocturne] && again.stderr.isEmpty, "\(again)")
    }

    @Test("a damaged index is kept aside with one warning, and rebuilt")
    func damagedIndex() throws {
        let sandbox = try Sandbox()
        try Self.library(in: sandbox)
        try sandbox.write(sandbox.dataHome + "/smfplay/library.sqlite", Array(repeating: 0x42, count: 4096))
        let result = try sandbox.run(["search", "ballade", "--library", "Library"])
        #expect(result.succeeded, "\(result)")
        #expect(result.stderrLines.filter { $0.contains("damaged") }.count == 1, "\(result)")
        #expect(sandbox.files(under: sandbox.dataHome + "/smfplay").contains { $0.hasPrefix("library.sqlite.bad-") })
    }

    @Test("two `smfplay index` and a `smfplay search` at once, as from two terminals: none fails, none says the database is locked, nothing is lost")
    func concurrentProcesses() throws {
        let sandbox = try Sandbox()
        for number in 1...600 {
            try sandbox.write("Library/Composer \(number % 20)/Piece \(number).mid", Fixtures.song(title: "Piece number \(number)"))
        }
        let commands = [
            ["index", "--library", "Library"], ["index", "--library", "Library"], ["search", "piece", "--library", "Library", "--limit", "0"],
        ]
        let results = OwnResults(count: commands.count)
        // Only read by the threads: run() uses the sandbox's fixed paths.
        nonisolated(unsafe) let shared = sandbox
        DispatchQueue.concurrentPerform(iterations: commands.count) { index in
            results.set(index, Result { try shared.run(commands[index]) })
        }
        for (command, result) in zip(commands, results.values) {
            let run = try result.get()
            #expect(run.succeeded, "\(command): \(run)")
            #expect(!run.stderr.lowercased().contains("locked"), "\(command): \(run)")
        }
        let search = try results.values[2].get()
        #expect(search.stdoutLines.count == 600, "the search during the indexing found \(search.stdoutLines.count) of 600")
        let again = try sandbox.run(["index", "--library", "Library"])
        #expect(again.stdout.contains("600 MIDI files indexed (0 added, 0 changed, 0 removed, 600 unchanged"), "\(again)")
    }
}

/// Results written by several threads, each to its own place.
private final class OwnResults: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Result<Command.Result, any Error>?]

    init(count: Int) { stored = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Command.Result, any Error>) {
        lock.withLock { stored[index] = result }
    }

    var values: [Result<Command.Result, any Error>] { lock.withLock { stored.map { $0! } } }
}
