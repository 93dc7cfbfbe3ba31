import TestSupport
import Testing
import Thumbnails

@testable import TerminalUI

/// The play view's keyboard: where keys go, which keys are shown in a given width, and how lit keys look.
@Suite("Piano keyboard")
struct PianoKeyboardTests {
    static let whiteInOctave = [0, 2, 4, 5, 7, 9, 11]
    static let blackInOctave = [1, 3, 6, 8, 10]

    /// The keyboard drawn without colours, as its three lines.
    static func plain(_ keyboard: PianoKeyboard, pressed: [UInt64] = []) -> [String] {
        keyboard.rows(pressed: pressed, colours: false)
    }

    static func pressed(_ keys: [Int: Int]) -> [UInt64] {
        var masks = [UInt64](repeating: 0, count: 128)
        for (key, channel) in keys { masks[key] |= 1 << UInt64(channel) }
        return masks
    }

    @Test("one octave: black keys in the top row between their white neighbours, none between E and F or B and C")
    func oneOctave() throws {
        let keyboard = try #require(PianoKeyboard(songKeys: 60...71, width: 40))
        #expect(keyboard.keys == 60...71)
        #expect(keyboard.width == 14)
        #expect(
            Self.plain(keyboard) == [
                " █ █ ▕ █ █ █ ▕",
                " ▕ ▕ ▕ ▕ ▕ ▕ ▕",
                "C4",
            ])
        // Each black key's column touches both its white neighbours' columns in the top row.
        for black in Self.blackInOctave.map({ 60 + $0 }) {
            let column = try #require(keyboard.columns(ofKey: black))
            #expect(column.count == 1)
            #expect(keyboard.columns(ofKey: black - 1)?.upperBound == column.lowerBound, "key \(black)")
            #expect(keyboard.columns(ofKey: black + 1)?.lowerBound == column.upperBound, "key \(black)")
        }
        // E–F and B–C meet with no black key between: E and B keep both their columns.
        #expect(keyboard.columns(ofKey: 64) == 4..<6 && keyboard.columns(ofKey: 65) == 6..<7)
        #expect(keyboard.columns(ofKey: 71) == 12..<14)
        #expect(keyboard.columns(ofKey: 59) == nil && keyboard.columns(ofKey: 72) == nil)
    }

    @Test("the whole keyboard, C-1 to G9, when 150 columns fit: every C labelled with its octave")
    func wholeKeyboard() throws {
        let keyboard = try #require(PianoKeyboard(songKeys: 60...64, width: 150))
        #expect(keyboard.keys == 0...127 && keyboard.width == 150)
        #expect(!keyboard.isCutBelow && !keyboard.isCutAbove)
        let lines = Self.plain(keyboard)
        #expect(lines[0].count == 150 && lines[1].count == 150)
        // 75 white keys, 2 columns each: 10 whole octaves, then C9 to G9.
        #expect(lines[0].hasSuffix(" █ █ ▕ █ █ █ ▕" + " █ █ ▕ █ ▕"))
        let labels = Array(lines[2])
        for octave in -1...9 {
            let column = 14 * (octave + 1)
            let label = "C\(octave)"
            #expect(String(labels[column..<column + label.count]) == label)
            #expect(keyboard.columns(ofKey: 12 * (octave + 1))?.lowerBound == column)
        }
        #expect(lines[2].filter { $0 == "C" }.count == 11)
        #expect(keyboard.columns(ofKey: 127) == 148..<150)
        // One column less and the song's octave is shown instead.
        #expect(PianoKeyboard(songKeys: 60...64, width: 149)?.keys == 60...71)
    }

    @Test("narrower: the whole octaves the song uses, or a song without notes, the two octaves around middle C")
    func octavesOfTheSong() {
        #expect(PianoKeyboard(songKeys: 57...74, width: 80)?.keys == 48...83)
        #expect(PianoKeyboard(songKeys: 0...0, width: 80)?.keys == 0...11)
        #expect(PianoKeyboard(songKeys: 120...127, width: 80)?.keys == 120...127)
        #expect(PianoKeyboard(songKeys: nil, width: 80)?.keys == 48...71)
        let exact = PianoKeyboard(songKeys: 48...83, width: 42)
        #expect(exact?.keys == 48...83 && exact?.width == 42 && exact?.isCutBelow == false && exact?.isCutAbove == false)
    }

    @Test("too narrow for the song's octaves: the part around its middle that fits, marked where notes lie beyond")
    func cutAroundTheMiddle() throws {
        // A0 to C8, the piano's range, in 40 columns: 19 white keys between the marks.
        let keyboard = try #require(PianoKeyboard(songKeys: 21...108, width: 40))
        #expect(keyboard.isCutBelow && keyboard.isCutAbove)
        #expect(keyboard.width == 40)
        let middle = (21 + 108) / 2
        #expect(keyboard.keys.contains(middle))
        let whitesBelow = keyboard.keys.filter { $0 < middle && !PianoKeyboard.isBlack($0) }.count
        let whitesAbove = keyboard.keys.filter { $0 > middle && !PianoKeyboard.isBlack($0) }.count
        #expect(abs(whitesBelow - whitesAbove) <= 1, "\(keyboard.keys)")
        let lines = Self.plain(keyboard)
        #expect(lines[0].first == "<" && lines[0].last == ">")
        #expect(lines[1].first == "<" && lines[1].last == ">")
        // Cut on one side only: D8 to G9 in 20 columns, the song's lowest key at the left edge.
        let oneSided = try #require(PianoKeyboard(songKeys: 110...127, width: 20))
        #expect(!oneSided.isCutBelow && oneSided.isCutAbove && oneSided.keys == 110...124 && oneSided.width == 19)
        let oneSidedLines = Self.plain(oneSided)
        #expect(oneSidedLines[0].first == " " && oneSidedLines[0].last == ">")
        #expect(oneSidedLines[2] == "            C9")
    }

    @Test(
        "never wider than the terminal, at any width, for any song",
        arguments: [nil, 0...0, 60...60, 21...108, 0...127, 100...127, 35...81] as [ClosedRange<UInt8>?])
    func neverOverflows(_ songKeys: ClosedRange<UInt8>?) {
        for width in 0...200 {
            guard let keyboard = PianoKeyboard(songKeys: songKeys, width: width) else {
                #expect(width < 4, "no keyboard in \(width) columns")
                continue
            }
            #expect(keyboard.width <= width, "\(width) columns: \(keyboard.keys)")
            for line in Self.plain(keyboard, pressed: Self.pressed([60: 0, 0: 1, 127: 2])) {
                #expect(DisplayWidth.columns(of: line) <= width, "\(width) columns: “\(line)”")
            }
            // The song's middle is always shown.
            let song = songKeys.map { Int($0.lowerBound)...Int($0.upperBound) } ?? 48...71
            #expect(keyboard.keys.contains((song.lowerBound + song.upperBound) / 2) || PianoKeyboard.isBlack((song.lowerBound + song.upperBound) / 2))
        }
    }

    @Test("lit keys: a ● on the key, in the colour of its lowest channel (by channel within a port)")
    func litKeys() throws {
        let keyboard = try #require(PianoKeyboard(songKeys: 60...71, width: 40))
        // C4 on channel 1, C♯4 on channel 2, E4 on port 2's channel 2 (synthesizer channel 17),
        // G4 on channels 6 and 4.
        var pressed = Self.pressed([60: 0, 61: 1, 64: 17, 67: 5])
        pressed[67] |= 1 << 3
        let lines = Self.plain(keyboard, pressed: pressed)
        #expect(lines[0] == " ● █ ▕ █ █ █ ▕")
        #expect(lines[1] == "●▕ ▕●▕ ▕●▕ ▕ ▕")
        let colours = keyboard.rows(pressed: pressed, colours: true)
        let top = TerminalScreenLine(colours[0])
        let bottom = TerminalScreenLine(colours[1])
        #expect(bottom.cells.count == 14)
        #expect(bottom.cells[0].background == ChannelPalette.terminalColour(channel: 0))
        #expect(bottom.cells[1].background == ChannelPalette.terminalColour(channel: 0))
        #expect(top.cells[0].background == ChannelPalette.terminalColour(channel: 0))
        #expect(top.cells[1].background == ChannelPalette.terminalColour(channel: 1))
        #expect(bottom.cells[4].background == ChannelPalette.terminalColour(channel: 1))
        #expect(bottom.cells[8].background == ChannelPalette.terminalColour(channel: 3))
        // Unlit keys: white keys light, black keys dark, all alike.
        #expect(bottom.cells[2].background == PianoKeyboard.whiteKeyColour)
        #expect(top.cells[3].background == PianoKeyboard.blackKeyColour)
        // The 16 channel colours are distinct, and none is an unlit key's.
        let channelColours = Set((0..<16).map(ChannelPalette.terminalColour(channel:)))
        #expect(channelColours.count == 16)
        #expect(channelColours.isDisjoint(with: [PianoKeyboard.whiteKeyColour, PianoKeyboard.blackKeyColour]))
    }

    @Test("a note beyond a cut edge lights its mark")
    func marksLightForNotesBeyond() throws {
        let keyboard = try #require(PianoKeyboard(songKeys: 21...108, width: 40))
        let below = keyboard.keys.lowerBound - 3
        let lines = keyboard.rows(pressed: Self.pressed([below: 2]), colours: true).map { TerminalScreenLine($0) }
        #expect(lines[0].cells.first?.character == "<" && lines[0].cells.first?.background == ChannelPalette.terminalColour(channel: 2))
        #expect(lines[0].cells.last?.character == ">" && lines[0].cells.last?.background == nil)
    }

    @Test("a roll row: each sounding key at its top-row columns, in its channel's colour")
    func rollRow() throws {
        let keyboard = try #require(PianoKeyboard(songKeys: 60...71, width: 40))
        let sounding = Self.pressed([60: 0, 61: 4, 64: 1, 71: 9])
        #expect(keyboard.rollRow(sounding: sounding, colours: false) == "██  ██      ██")
        let line = TerminalScreenLine(keyboard.rollRow(sounding: sounding, colours: true))
        #expect(line.cells[0].foreground == ChannelPalette.terminalColour(channel: 0))
        #expect(line.cells[1].foreground == ChannelPalette.terminalColour(channel: 4))
        #expect(line.cells[4].foreground == ChannelPalette.terminalColour(channel: 1))
        #expect(line.cells[13].foreground == ChannelPalette.terminalColour(channel: 9))
        #expect(keyboard.rollRow(sounding: [], colours: true).isEmpty)
    }
}
