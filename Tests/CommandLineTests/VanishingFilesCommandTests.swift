import Foundation
import TestSupport
import Testing

/// Files and folders of a queue going away under `smfplay play`: deleted, replaced, or their
/// folder moved away (a disk unmounted) while the queue plays. Each file passed over is said, the
/// rest play, and the status is 1 (the exit status table: a file given could not be played).
@Suite("smfplay play: files vanishing from a queue", .serialized, .sharedPulseAudioServer)
struct VanishingFilesCommandTests {
    let server: PulseAudioServer

    init() throws {
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
    }

    /// Four songs of 4 s in Album/, played at 4× tempo: a second each.
    static func album(_ sandbox: Sandbox) throws {
        for number in 1...4 { try sandbox.write("Album/\(number).mid", LoudnessSong.file(volume: 100, seconds: 4)) }
    }

    static let play = ["play", "Album", "--soundfont", Fixtures.soundFont, "--tempo", "4", "--latency", "50", "--loudness", "off", "--no-mpris"]

    @Test(
        "the folder moved away mid-play: said once, the songs loaded play, the rest are passed over, and the resume state keeps the whole queue at the first song passed over"
    )
    func folderGone() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.album(sandbox)
        let player = try PlayingCommand(sandbox, Self.play, server: server)
        try #require(player.waitForLine(containing: "playing 1/4") != nil, "\(player.stdout)")
        player.sleep(seconds: 0.4)
        try #require(rename(sandbox.path("Album"), sandbox.path("Elsewhere")) == 0)
        let exit = player.wait(timeLimit: 20)
        #expect(exit.status == 1, "a file passed over: \(player.report(exit))")
        #expect(player.stdout.contains("playing 2/4"), "the song prepared before the folder went plays: \(player.stdout)")
        #expect(!player.stdout.contains("playing 3/4") && !player.stdout.contains("playing 4/4"), "\(player.stdout)")
        let said = player.stderr.components(separatedBy: "its folder is gone").count - 1
        #expect(said == 1, "said once for the folder, not once a song: \(player.stderr)")
        let saved = try sandbox.savedState()
        #expect(saved.queue.count == 4, "the queue kept whole for when the folder is back: \(saved)")
        #expect(saved.place == 2 && saved.position.seconds == 0, "at the first song passed over: \(saved)")

        // Back again: resume goes on from there.
        try #require(rename(sandbox.path("Elsewhere"), sandbox.path("Album")) == 0)
        let resumed = try PlayingCommand(
            sandbox, ["resume", "--soundfont", Fixtures.soundFont, "--tempo", "4", "--latency", "50", "--loudness", "off", "--no-mpris"],
            server: server)
        let resumedExit = resumed.wait(timeLimit: 20)
        #expect(resumedExit.status == 0, "\(resumed.report(resumedExit))")
        #expect(
            resumed.stdout.contains("playing 3/4") && resumed.stdout.contains("playing 4/4") && !resumed.stdout.contains("playing 2/4"),
            "\(resumed.stdout) \(resumed.stderr)")
    }

    @Test(
        "a queued file made unreadable before its turn (its permissions taken away; as root, whom they do not stop, a FIFO put in its place) is passed over with its name, and the queue goes on"
    )
    func fileMadeUnreadable() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.album(sandbox)
        let player = try PlayingCommand(sandbox, Self.play, server: server)
        try #require(player.waitForLine(containing: "playing 1/4") != nil, "\(player.stdout)")
        let third = sandbox.path("Album/3.mid")
        if getuid() == 0 {
            try #require(unlink(third) == 0 && mkfifo(third, 0o600) == 0, "\(String(cString: strerror(errno)))")
        } else {
            try #require(chmod(third, 0) == 0, "\(String(cString: strerror(errno)))")
        }
        let exit = player.wait(timeLimit: 20)
        #expect(exit.status == 1, "a file passed over: \(player.report(exit))")
        #expect(player.stderr.contains("Album/3.mid: "), "\(player.stderr)")
        // Kept in the queue when it may be readable again (permissions), taken out when it is no file (a FIFO).
        #expect(player.stdout.contains(": Album/4.mid (0:04.0)") && !player.stdout.contains("Album/3.mid ("), "\(player.stdout)")
    }

    @Test("a queued file deleted before its turn is passed over with its name, and one replaced plays as it is now")
    func fileDeletedAndReplaced() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.album(sandbox)
        let player = try PlayingCommand(sandbox, Self.play, server: server)
        try #require(player.waitForLine(containing: "playing 1/4") != nil, "\(player.stdout)")
        // Song 2 is prepared already; 3 and 4 are read when their turn comes.
        try #require(unlink(sandbox.path("Album/3.mid")) == 0)
        try sandbox.write("Album/4.mid", LoudnessSong.file(volume: 100, seconds: 8))
        let exit = player.wait(timeLimit: 20)
        #expect(exit.status == 1, "a file passed over: \(player.report(exit))")
        #expect(player.stderr.contains("Album/3.mid: cannot read"), "\(player.stderr)")
        #expect(!player.stderr.contains("its folder is gone"), "\(player.stderr)")
        #expect(player.stdout.contains("playing 2/4") && !player.stdout.contains("playing 3/4"), "\(player.stdout)")
        // The song as it is now: 8 s long.
        #expect(player.stdout.contains("playing 4/4: Album/4.mid (0:08.0)"), "\(player.stdout)")
    }

    @Test(
        "the SoundFont deleted mid-play: songs on the loaded synthesizer play on; one that needs a synthesizer of its own is passed over, said once, and kept in the queue"
    )
    func soundFontGone() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.album(sandbox)
        try sandbox.write("Own/3.mid", LoudnessSong.file(volume: 100, seconds: 4))
        // Its own gain: a synthesizer of its own, made when its turn is near.
        try sandbox.write("Own/.smfplay.toml", Array("gain = 0.3\n".utf8))
        try FileManager.default.copyItem(atPath: Fixtures.soundFont, toPath: sandbox.path("copy.sf2"))
        let player = try PlayingCommand(
            sandbox,
            [
                "play", "Album/1.mid", "Album/2.mid", "Own/3.mid", "Album/4.mid", "--soundfont", sandbox.path("copy.sf2"), "--tempo", "4",
                "--latency", "50", "--loudness", "off", "--no-mpris",
            ], server: server)
        try #require(player.waitForLine(containing: "playing 1/4") != nil, "\(player.stdout)")
        try #require(unlink(sandbox.path("copy.sf2")) == 0)
        let exit = player.wait(timeLimit: 20)
        #expect(exit.status == 1, "a file passed over: \(player.report(exit))")
        #expect(player.stdout.contains("playing 2/4") && player.stdout.contains("playing 4/4"), "\(player.stdout)")
        #expect(!player.stdout.contains("playing 3/4"), "\(player.stdout)")
        let said = player.stderr.components(separatedBy: "the SoundFont is gone").count - 1
        #expect(said == 1, "\(player.stderr)")
        #expect(try sandbox.savedState().queue.count == 4)
    }

    @Test("the queue's last file deleted while the one before plays is said once, not at every look ahead")
    func lastFileGoneSaidOnce() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.album(sandbox)
        let player = try PlayingCommand(
            sandbox,
            [
                "play", "Album/1.mid", "Album/2.mid", "Album/3.mid", "--soundfont", Fixtures.soundFont, "--tempo", "4", "--latency", "50",
                "--loudness", "off", "--no-mpris",
            ], server: server)
        try #require(player.waitForLine(containing: "playing 1/3") != nil, "\(player.stdout)")
        // 2.mid is prepared already; 3.mid is looked for while 2.mid plays, a second of updates.
        try #require(unlink(sandbox.path("Album/3.mid")) == 0)
        let exit = player.wait(timeLimit: 20)
        #expect(exit.status == 1, "a file passed over: \(player.report(exit))")
        #expect(player.stdout.contains("playing 2/3") && !player.stdout.contains("playing 3/3"), "\(player.stdout)")
        let said = player.stderr.components(separatedBy: "Album/3.mid: cannot read").count - 1
        #expect(said == 1, "\(player.stderr)")
    }
}
