import Foundation
import SMF
import TestSupport
import Testing

/// `info` lists what a GS song writes on the Sound Canvas's screen, with its times, and draws its
/// dot picture.
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
}
