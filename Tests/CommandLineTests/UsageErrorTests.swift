import Foundation
import TestSupport
import Testing

/// What a mistyped command line gets: one line on standard error that says what is wrong (with
/// the name it was likely meant to be), the usage status 64, and nothing done.
@Suite("smfplay: usage errors")
struct UsageErrorTests {
    @Test("a first word that is neither a command nor a file: 64, with the command it was likely meant to be, and x.mid is not played")
    func misspeltCommand() throws {
        let sandbox = try Sandbox()
        try sandbox.write("x.mid", Fixtures.song())
        let result = try sandbox.run(["inof", "x.mid"])
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderrLines == ["smfplay: 'inof' is neither a command nor a file or folder (did you mean 'info'?); see smfplay --help"],
            "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test(
        "a negative number is a value said out of range, not a missing one",
        arguments: [
            (["render", "x.mid", "--gain", "-1"], "--gain must be from 0 to 10, not -1.0"),
            (["search", "x", "--limit", "-1"], "--limit must be 0 (all) or more, not -1"),
            (["play", "x.mid", "--latency", "-5"], "--latency must be from 5 to 2000 ms, not -5"),
            (["thumbnail", "x.mid", "x.png", "--size", "-3"], "--size must be from 16 to 4096 pixels, not -3"),
        ])
    func negativeNumbers(arguments: [String], message: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("x.mid", Fixtures.song())
        let result = try sandbox.run(arguments)
        #expect(result.status == 64 && result.stderr.contains(message), "\(result)")
    }

    @Test("smfplay MISSING.mid: 64, the file named as not there")
    func missingFile() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["nosuch.mid"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["smfplay: nosuch.mid: no such file or folder"], "\(result)")
    }

    @Test("help NOSUCH: 64, with the commands there are; help play still helps")
    func helpForNoCommand() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["help", "plya"])
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderrLines.count == 1 && result.stderr.contains("no command named 'plya' (did you mean 'play'?)")
                && result.stderr.contains("info, render"), "\(result)")
        let help = try sandbox.run(["help", "play"])
        #expect(help.succeeded && help.stdout.contains("USAGE: smfplay play"), "\(help)")
    }

    @Test("an unknown option is reported before any check of the others: render --frmat names --frmat, not the missing -o")
    func unknownOptionFirst() throws {
        let sandbox = try Sandbox()
        try sandbox.write("x.mid", Fixtures.song())
        let result = try sandbox.run(["render", "--frmat", "flac", "x.mid"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("Unknown option '--frmat'"), "\(result)")
        #expect(!result.stderr.contains("-o"), "\(result)")
        // The checks of the values together still run when every option is known.
        let missingOutput = try sandbox.run(["render", "-", "--format", "flac"])
        #expect(missingOutput.status == 64 && missingOutput.stderr.contains("-o is needed"), "\(missingOutput)")
    }

    @Test("smfplay alone prints the help, which says that smfplay PATH plays and what each exit status means")
    func helpAlone() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run([])
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.contains("smfplay PATH... plays"), "\(result)")
        #expect(result.stdout.contains("64 a wrong command line"), "\(result)")
    }
}

/// Times on the command line, and a start that the song does not reach.
@Suite("smfplay play: where to start")
struct StartTimeTests {
    @Test(
        "times as clocks write them: 9:99 and 1:60:00 are refused with the forms a time takes (64); 1:05:00 and 75.5 are times",
        arguments: [("9:99", false), ("1:60:00", false), ("1:-5", false), ("1e3", false), ("1:05:00", true), ("75.5", true), ("0:05", true)])
    func clockTimes(_ time: String, _ isATime: Bool) throws {
        let sandbox = try Sandbox()
        // A song past every start given here: a time accepted reaches the sound server, which is not there (69).
        try sandbox.write("long.mid", Songs.heldNote(60, seconds: 4000))
        let result = try sandbox.run(["play", "long.mid", "--start", time, "--server", "unix:" + sandbox.root + "/no-server"])
        if isATime {
            #expect(result.status == 69, "\(result)")
        } else {
            #expect(result.status == 64, "\(result)")
            #expect(
                result.stderr.contains("'\(time)' is invalid for '--start <time>': give seconds, m:ss or h:mm:ss (minutes and seconds under 60)"),
                "\(result)")
        }
    }

    @Test(
        "a start past the end of the first song is a usage error naming the song and its length (64), not a silent skip of the queue",
        arguments: [["--start", "9:59"], ["--seek", "500:1"]])
    func startPastTheEnd(_ option: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.write("short.mid", Songs.heldNote(60, seconds: 3))
        try sandbox.write("next.mid", Songs.heldNote(62, seconds: 3))
        let result = try sandbox.run(["play", "short.mid", "next.mid"] + option)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["smfplay: \(option.joined(separator: " ")) is past the end of short.mid, which lasts 0:03.0"], "\(result)")
    }

    @Test(
        "a start past the end of a song piped in names it standard input",
        arguments: [["--start", "9:59"], ["--seek", "500:1"]])
    func startPastTheEndOfStandardInput(_ option: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.write("short.mid", Songs.heldNote(60, seconds: 3))
        let result = try ShellPipeline.run("cat short.mid | \"$SMFPLAY\" play - \(option.joined(separator: " "))", in: sandbox)
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderrLines == ["smfplay: \(option.joined(separator: " ")) is past the end of standard input, which lasts 0:03.0"], "\(result)")
    }
}
