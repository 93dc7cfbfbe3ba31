import Foundation
import TestSupport
import Testing

/// `smfplay info`, run as a user runs it, checked on what it prints.
@Suite("smfplay info")
struct InfoCommandTests {
    struct Piece: Sendable {
        var path: String
        var title: String
        var duration: String
        var seconds: Double
    }

    /// The demo library in the order `info` must print it: folders first at each level, then
    /// files, both in natural order (No.8 before No.10).
    static let library = [
        Piece(path: "Bach/Inventions/Invention No.1 BWV 772.mid", title: "Invention No.1 in C major BWV 772", duration: "0:20.5", seconds: 20.5),
        Piece(path: "Bach/Inventions/Invention No.8 BWV 779.mid", title: "Invention No.8 in F major BWV 779", duration: "0:21.0", seconds: 21.0),
        Piece(path: "Bach/Inventions/Invention No.10 BWV 781.mid", title: "Invention No.10 in G major BWV 781", duration: "0:37.5", seconds: 37.5),
        Piece(
            path: "Bach/Well-Tempered Clavier/Prelude in C major BWV 846.mid", title: "Prelude in C major BWV 846", duration: "1:58.9", seconds: 118.9
        ),
        Piece(path: "Satie/Gymnopédies/Gymnopédie No.1.mid", title: "Gymnopédie No.1", duration: "0:33.4", seconds: 33.4),
        Piece(path: "Traditional/Folk/Greensleeves.mid", title: "Greensleeves", duration: "0:39.5", seconds: 39.5),
        Piece(path: "ショパン/Preludes/Prelude Op.28 No.20.mid", title: "Prelude Op.28 No.20 in C minor", duration: "1:10.5", seconds: 70.5),
    ]

    /// The text output cut into one block per file: the path line, then its indented lines.
    static func blocks(_ lines: [String]) -> [(path: String, lines: [String])] {
        var blocks: [(path: String, lines: [String])] = []
        for line in lines {
            if line.hasPrefix(" ") || line.isEmpty, !blocks.isEmpty {
                blocks[blocks.count - 1].lines.append(line)
            } else {
                blocks.append((line, []))
            }
        }
        return blocks
    }

    /// The value of a labelled row (`  Title      Greensleeves`), first line only.
    static func field(_ label: String, in lines: [String]) -> String? {
        for line in lines {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix(label + " ") else { continue }
            return trimmed.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    @Test("the demo library: every piece, in natural order, with its title and duration, and its folder names byte for byte")
    func demoLibrary() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["info", "Examples/Library"], in: Fixtures.packageRoot)
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let blocks = Self.blocks(result.stdoutLines)
        let expected = Self.library.map { "Examples/Library/" + $0.path }
        #expect(blocks.map(\.path) == expected, "\(result)")
        // Text compares canonically equivalent strings equal: compare bytes, so that a
        // normalization or decoding change in a path cannot pass.
        #expect(blocks.map { Array($0.path.utf8) } == expected.map { Array($0.utf8) })
        for (block, piece) in zip(blocks, Self.library) {
            #expect(Self.field("Title", in: block.lines) == piece.title, "\(block.path)")
            #expect(Self.field("Duration", in: block.lines) == piece.duration, "\(block.path)")
            #expect(FileManager.default.fileExists(atPath: Fixtures.packageRoot + "/" + block.path), "the printed path names the file: \(block.path)")
        }
        let chopin = try #require(blocks.last?.path)
        #expect(chopin.contains("/ショパン/Preludes/"))
    }

    @Test("--json prints one document with every file's path, summary and warnings")
    func json() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["info", "--json", Fixtures.library])
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result)")
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["path"] as? String } == Self.library.map { Fixtures.library + "/" + $0.path })
        for (file, piece) in zip(files, Self.library) {
            let summary = try #require(file["summary"] as? [String: Any], "\(piece.path): \(file)")
            #expect(summary["title"] as? String == piece.title)
            let seconds = try #require(summary["durationSeconds"] as? Double, "\(piece.path)")
            #expect(abs(seconds - piece.seconds) < 0.06, "\(piece.path) lasts \(seconds) s")
            #expect(summary["format"] as? Int != nil)
            #expect((summary["noteCount"] as? Int ?? 0) > 0)
            #expect((summary["tracks"] as? [Any])?.isEmpty == false)
            #expect((summary["channels"] as? [Any])?.isEmpty == false)
            #expect((file["warnings"] as? [Any])?.isEmpty == true, "\(piece.path): \(file["warnings"] ?? "no warnings key")")
            #expect(file["error"] == nil)
        }
    }

    @Test("a damaged file and a missing path: one error line each on standard error, the rest still printed, status 1")
    func damagedAndMissingFiles() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.mid", Fixtures.song(title: "Still here"))
        try sandbox.write("broken.mid", Fixtures.truncatedEvent)
        try sandbox.write("later/also good.mid", Fixtures.song(title: "Also here"))
        let result = try sandbox.run(["info", "good.mid", "broken.mid", "missing.mid", "later"])
        #expect(result.status == 1, "\(result)")
        #expect(result.signal == nil)

        let errors = result.stderrLines
        #expect(errors.count == 2, "one line per file that could not be read: \(result)")
        #expect(errors.filter { $0.contains("broken.mid") } == ["smfplay: broken.mid: " + Fixtures.truncatedEventMessage], "\(result)")
        #expect(errors.filter { $0.contains("missing.mid") }.count == 1, "\(result)")
        // Said once: not in the report on standard output too.
        #expect(!result.stdout.contains("broken.mid") && !result.stdout.contains("missing.mid") && !result.stdout.contains("error"), "\(result)")

        let blocks = Self.blocks(result.stdoutLines)
        let good = try #require(blocks.first { $0.path == "good.mid" }, "\(result)")
        #expect(Self.field("Title", in: good.lines) == "Still here")
        #expect(Self.field("Duration", in: good.lines) == "0:01.5")
        let later = try #require(blocks.first { $0.path == "later/also good.mid" }, "\(result)")
        #expect(Self.field("Title", in: later.lines) == "Also here")
    }

    @Test("--json with a damaged file and a missing path: an error entry for each, the rest summarized, status 1")
    func damagedAndMissingFilesInJSON() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.mid", Fixtures.song())
        try sandbox.write("broken.mid", Fixtures.truncatedEvent)
        let result = try sandbox.run(["info", "--json", "broken.mid", "missing.mid", "good.mid"])
        #expect(result.status == 1, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result)")
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["path"] as? String } == ["broken.mid", "missing.mid", "good.mid"])
        #expect(files.first?["error"] as? String == Fixtures.truncatedEventMessage)
        #expect(files.dropFirst().first?["error"] is String)
        #expect(files.last?["summary"] is [String: Any])
        #expect(files.last?["error"] == nil)
    }

    @Test("a file with a warning: printed with its warning; --strict makes it an error")
    func strict() throws {
        let sandbox = try Sandbox()
        try sandbox.write("no end.mid", Fixtures.missingEndOfTrack)

        let lenient = try sandbox.run(["info", "no end.mid"])
        #expect(lenient.succeeded, "\(lenient)")
        #expect(Self.field("Warnings", in: lenient.stdoutLines)?.contains("End of Track") == true, "\(lenient)")

        let strict = try sandbox.run(["info", "--strict", "no end.mid"])
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.stderrLines.count == 1, "\(strict)")
        #expect(strict.stderrLines.first?.contains("no end.mid: ") == true, "\(strict)")
        #expect(strict.stderrLines.first?.contains("End of Track") == true, "\(strict)")

        let clean = try sandbox.run(["info", "--strict", Fixtures.library])
        #expect(clean.succeeded, "the demo library has nothing unusual: \(clean)")
    }

    @Test(
        "--help for smfplay and each command prints its usage and exits 0",
        arguments: [
            ["--help"], ["info", "--help"], ["render", "--help"], ["help", "render"],
        ])
    func help(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(arguments)
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.contains("USAGE: smfplay"), "\(result)")
        if let command = arguments.first(where: { $0 == "info" || $0 == "render" }) {
            #expect(result.stdout.contains("USAGE: smfplay \(command)"), "\(result)")
        }
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("a command without its files is a usage error (status 64) that shows the command's usage", arguments: ["info", "render"])
    func missingArguments(_ command: String) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run([command])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("Usage: smfplay \(command)"), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }
}
