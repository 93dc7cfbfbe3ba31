import Foundation
import SMF
import TestSupport
import Testing

/// `info` lists what a GS song writes on the Sound Canvas's screen, with its times, and draws its
/// dot picture; an XG song's bitmap shows in the play view when it is heard (below).
struct ModuleDisplayCommandTests {
    static func roland(_ address: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let body = address + data
        return [0x41, 0x10, 0x45, 0x12] + body + [UInt8((128 - body.reduce(0) { $0 + Int($1) } % 128) % 128), 0xF7]
    }

    /// A smiling face, as a GS song might greet with, in the Sound Canvas's dot data.
    static let face = [
        "................", "....########....", "...#........#...", "..#..........#..", ".#...##..##...#.", ".#...##..##...#.",
        ".#............#.", ".#............#.", ".#..#......#..#.", ".#...#....#...#.", ".#....####....#.", "..#..........#..",
        "...#........#...", "....########....", "................", "................",
    ]

    /// `lines` in an MU's bitmap (`4C 07 00 00`): three groups of 16 rows, seven columns a byte (the
    /// third group two), the leftmost in bit 6.
    static func xgBitmap(_ lines: [String]) -> [UInt8] {
        (0..<48).map { position in
            let (group, row) = (position / 16, position % 16)
            let columns = Array(lines[row])
            return (0..<(group == 2 ? 2 : 7)).reduce(UInt8(0)) { byte, bit in columns[group * 7 + bit] == "#" ? byte | 0x40 >> UInt8(bit) : byte }
        }
    }

    static func dotData(_ lines: [String]) -> [UInt8] {
        (0..<64).map { position in
            let (group, row) = (position / 16, position % 16)
            let columns = Array(lines[row])
            return (0..<(group == 3 ? 1 : 5)).reduce(UInt8(0)) { byte, bit in columns[group * 5 + bit] == "#" ? byte | 0x10 >> UInt8(bit) : byte }
        }
    }

    @Test("info lists a GS song's display letters and dot picture at their times, the picture drawn; --json carries them")
    func infoListsTheDisplay() throws {
        var track = Track()
        track.append(.systemExclusive([0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]), atTick: 0)
        track.append(.systemExclusive(Self.roland([0x10, 0x00, 0x00], Array("Welcome to my song      ".utf8))), atTick: 480)
        track.append(.systemExclusive(Self.roland([0x10, 0x01, 0x00], Self.dotData(Self.face))), atTick: 960)
        track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 960)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 1900)
        track.append(.meta(.endOfTrack), atTick: 1920)
        let sandbox = try Sandbox()
        try sandbox.write(
            "greeting.mid", SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
        let shown = try sandbox.run(["info", "greeting.mid"])
        try #require(shown.succeeded, "\(shown)")
        #expect(shown.stdoutLines.contains("  Display    0:00.5 GS “Welcome to my song”"), "\(shown.stdout)")
        #expect(shown.stdoutLines.contains("             0:01.0 GS picture"), "\(shown.stdout)")
        // The face's eyes: rows 4 and 5 both on at columns 5-6 and 9-10, a full block each.
        #expect(shown.stdoutLines.contains("               ▏ █   ██  ██   █ ▕"), "\(shown.stdout)")
        let json = try sandbox.run(["info", "greeting.mid", "--json"])
        #expect(json.succeeded && json.stdout.contains("\"text\" : \"Welcome to my song\""), "\(json)")
        #expect(json.stdout.contains("\"....########....\""), "\(json.stdout)")
    }

    @Test("info lists an XG song's bitmap as the MU's picture and draws it; --json carries it, module XG")
    func infoListsAnXGBitmap() throws {
        var track = Track()
        track.append(.systemExclusive([0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]), atTick: 0)
        track.append(.systemExclusive([0x43, 0x10, 0x4C, 0x07, 0x00, 0x00] + Self.xgBitmap(Self.face) + [0xF7]), atTick: 960)
        track.append(.meta(.endOfTrack), atTick: 1920)
        let sandbox = try Sandbox()
        try sandbox.write(
            "bitmap.mid", SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
        let shown = try sandbox.run(["info", "bitmap.mid"])
        try #require(shown.succeeded, "\(shown)")
        #expect(shown.stdoutLines.contains("  Display    0:01.0 XG picture"), "\(shown.stdout)")
        #expect(shown.stdoutLines.contains("               ▏ █   ██  ██   █ ▕"), "\(shown.stdout)")
        let json = try sandbox.run(["info", "bitmap.mid", "--json"])
        #expect(json.succeeded && json.stdout.contains("\"module\" : \"XG\""), "\(json)")
        #expect(json.stdout.contains("\".#...##..##...#.\""), "\(json.stdout)")
    }
}

// The play view's test of an MU's bitmap listens to a real PulseAudio server, so it belongs to the
// play view's suite: its server, and its place among the suites that run alone (the Makefile's
// REALTIME_SUITES).
extension PlayViewCommandTests {
    @Test("an XG song's bitmap shows in the play view when it is heard (2 s in), not before, and goes 3 s later as the MU's does")
    func xgBitmapFollowsTheSound() throws {
        var track = Track()
        track.append(.systemExclusive([0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]), atTick: 0)
        track.append(.programChange(channel: 0, program: Songs.ocarina), atTick: 0)
        track.append(.noteOn(channel: 0, note: 76, velocity: 100), atTick: 0)
        let bitmap = [0x43, 0x11, 0x4C, 0x07, 0x00, 0x00] + ModuleDisplayCommandTests.xgBitmap(ModuleDisplayCommandTests.face) + [0xF7]
        track.append(.systemExclusive(bitmap), atTick: UInt32(2 * Songs.ticksPerSecond))
        track.append(.noteOff(channel: 0, note: 76, velocity: 0), atTick: UInt32(6 * Songs.ticksPerSecond))
        track.append(.meta(.endOfTrack), atTick: UInt32(6 * Songs.ticksPerSecond))
        let sandbox = try Sandbox()
        try sandbox.write(
            "bitmap.mid", SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
        let take = try Take(server)
        let terminal = try playView(["bitmap.mid", "--latency", "50"], in: sandbox, columns: 100)
        // The face's eyes, and its edge in column 15: the third group's first bit.
        let eyes = "▕ █   ██  ██   █ ▏"
        var shownAt: Int?
        var goneAt: Int?
        let deadline = Date().addingTimeInterval(15)
        while goneAt == nil, Date() < deadline {
            let screen = try terminal.screen()
            let frame = take.framesSoFar
            if shownAt == nil, screen.contains(eyes) { shownAt = frame }
            if shownAt != nil, !screen.contains(eyes), screen.contains(where: { $0.hasPrefix("▶ ") }) { goneAt = frame }
            usleep(2_000)
        }
        let status = terminal.exitStatus(waitingAtMost: 15)
        let (sound, _) = try take.finish()
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none")")
        let start = try #require(sound.spans.first { sound.peak($0) > 5e-3 }?.lowerBound, "nothing reached the sink")
        let shown = try #require(shownAt, "the bitmap never showed")
        let gone = try #require(goneAt, "the bitmap never went")
        #expect(abs(Take.seconds(shown - start) - 2) <= 0.1, "the bitmap showed \(Take.seconds(shown - start)) s after the song was first heard")
        #expect(abs(Take.seconds(gone - start) - 5) <= 0.1, "the bitmap went \(Take.seconds(gone - start)) s after the song was first heard")
    }
}
