import SMF
import Testing

@testable import TerminalUI

/// The play view's rows for the module's screen at a time of the song: letters scrolled as the
/// module scrolls them, an MU's bitmap only while the MU would show it.
@Suite struct ModuleDisplayViewTests {
    /// A song of 8 s (120 bpm, 480 ticks a beat: 960 ticks a second) with `messages` (system
    /// exclusive, without F0 and F7) at their seconds.
    static func song(_ messages: [(seconds: Double, bytes: [UInt8])]) -> Song {
        var track = Track()
        for message in messages { track.append(.systemExclusive(message.bytes + [0xF7]), atTick: UInt32(message.seconds * 960)) }
        track.append(.meta(.endOfTrack), atTick: 8 * 960)
        return Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    /// A Roland data set to the Sound Canvas's display letters, its checksum made.
    static func soundCanvasLetters(_ text: String) -> [UInt8] {
        let body: [UInt8] = [0x10, 0x00, 0x00] + Array(text.utf8)
        return [0x41, 0x10, 0x45, 0x12] + body + [UInt8((128 - body.reduce(0) { $0 + Int($1) } % 128) % 128)]
    }

    static let decoding = TextDecoding(forcing: .utf8)

    @Test("Sound Canvas letters longer than 16 scroll from the time they came: 4 letters on a second later, whole once past")
    func lettersScrollFromTheirTime() throws {
        let view = try #require(
            ModuleDisplayView(song: Self.song([(1, Self.soundCanvasLetters("Welcome to the Sound Canvas!"))]), decoding: Self.decoding))
        #expect(view.rows(atSeconds: 0.5, width: 80) == [])
        #expect(view.rows(atSeconds: 1, width: 80) == ["GS│ Welcome to the S"])
        #expect(view.rows(atSeconds: 2, width: 80) == ["GS│ ome to the Sound"])
        #expect(view.rows(atSeconds: 4.3, width: 80) == ["GS│ Welcome to the Sound Canvas!"])
    }

    @Test("letters that fit the Sound Canvas's 16 stand still")
    func shortLettersStandStill() throws {
        let view = try #require(ModuleDisplayView(song: Self.song([(1, Self.soundCanvasLetters("Hello GS"))]), decoding: Self.decoding))
        #expect(view.rows(atSeconds: 1, width: 80) == ["GS│ Hello GS"] && view.rows(atSeconds: 2, width: 80) == ["GS│ Hello GS"])
    }

    @Test("an MU's bitmap shows from its time for 3 s, in half blocks; its letters stand whole")
    func bitmapShowsForThreeSeconds() throws {
        // Every dot of the first row on, and the second row's rightmost two.
        let bitmap =
            [0x7F] + [UInt8](repeating: 0, count: 15) + [0x7F] + [UInt8](repeating: 0, count: 15) + [0x60, 0x60] + [UInt8](repeating: 0, count: 14)
        let song = Self.song([
            (1, [0x43, 0x10, 0x4C, 0x06, 0x00, 0x00] + Array("An MU shows these 32 letters too".utf8)),
            (2, [0x43, 0x12, 0x4C, 0x07, 0x00, 0x00] + bitmap),
        ])
        let view = try #require(ModuleDisplayView(song: song, decoding: Self.decoding))
        #expect(view.rows(atSeconds: 1.5, width: 80) == ["XG│ An MU shows these 32 letters too"])
        let shown = view.rows(atSeconds: 2, width: 80)
        #expect(shown.count == 9 && shown[1] == "▕▀▀▀▀▀▀▀▀▀▀▀▀▀▀██▏", "\(shown)")
        #expect(view.rows(atSeconds: 4.9, width: 80).count == 9)
        #expect(view.rows(atSeconds: 5, width: 80) == ["XG│ An MU shows these 32 letters too"], "3 s on, the MU's own screen is back")
    }
}
