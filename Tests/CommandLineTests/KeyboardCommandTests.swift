import Foundation
import TestSupport
import Testing

/// The piano keyboard of `smfplay play`, read off a real terminal (tmux) while a song of known
/// chords plays through a real PulseAudio server: which keys are lit, and in which colours.
///
/// Serialized, on the play tests' kind of server: the player runs in real time.
@Suite("smfplay play: the piano keyboard on a terminal", .serialized, .sharedPulseAudioServer)
struct KeyboardCommandTests {
    let server: PulseAudioServer

    init() throws {
        try Fixtures.requireSoundFont()
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
    }

    /// The keyboard as a person reads it off the screen: the octave labels' line, and the two
    /// rows of keys above it, with their colours.
    struct ScreenKeyboard {
        /// Key 0–127 → the colour (256-colour palette index) it is lit in.
        var lit: [Int: UInt8?] = [:]
        /// The unlit white keys' colour, and the unlit black keys'.
        var whiteKeyColours: Set<UInt8?> = []
        var blackKeyColours: Set<UInt8?> = []
        /// Each C's column, by octave.
        var octaveColumns: [Int: Int] = [:]
        var width = 0

        /// `nil` when the screen shows no keyboard (no line of octave labels under two rows of keys).
        init?(_ screen: [String]) {
            let lines = TerminalScreenLine.screen(screen)
            guard let labelRow = lines.lastIndex(where: { Self.octaveLabels(in: $0.text) != nil }), labelRow >= 2,
                let labels = Self.octaveLabels(in: lines[labelRow].text)
            else { return nil }
            octaveColumns = labels
            // The keyboard ends with its last key drawn; blanks after it are the terminal's.
            let drawn = { (cells: [TerminalScreenLine.Cell]) in
                cells.prefix((cells.lastIndex { $0.character != " " || $0.background != nil } ?? -1) + 1)
            }
            let top = drawn(lines[labelRow - 2].cells)
            let bottom = lines[labelRow - 1].cells.prefix(top.count)
            width = top.count
            // Every column read against the C to its left: 14 columns an octave.
            guard let first = labels.min(by: { $0.value < $1.value }) else { return nil }
            let origin = first.value - 14 * (first.key + 1)
            let whiteKeys = [0, 2, 4, 5, 7, 9, 11]
            for (column, cell) in top.enumerated() where column >= origin {
                let offset = column - origin
                let inOctave = [0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 11][offset % 14]
                guard [1, 3, 6, 8, 10].contains(inOctave) else { continue }
                let key = offset / 14 * 12 + inOctave
                if cell.character == "●" { lit[key] = cell.background } else if cell.character == "█" { blackKeyColours.insert(cell.background) }
            }
            for (column, cell) in bottom.enumerated() where column >= origin && (column - origin) % 2 == 0 {
                let offset = column - origin
                let key = offset / 14 * 12 + whiteKeys[offset % 14 / 2]
                if cell.character == "●" { lit[key] = cell.background } else if cell.character == " " { whiteKeyColours.insert(cell.background) }
            }
        }

        /// The octave of each `C<n>` label of a line made only of such labels, by column.
        static func octaveLabels(in line: String) -> [Int: Int]? {
            var labels: [Int: Int] = [:]
            var column = 0
            for word in line.split(separator: " ", omittingEmptySubsequences: false) {
                if !word.isEmpty {
                    guard word.hasPrefix("C"), let octave = Int(word.dropFirst()) else { return nil }
                    labels[octave] = column
                }
                column += word.count + 1
            }
            return labels.isEmpty ? nil : labels
        }

        var litKeys: Set<Int> { Set(lit.keys) }
    }

    /// Plays `file` on a terminal of its own, in colour unless `noColour`.
    func startPlaying(
        _ sandbox: Sandbox, _ file: String, columns: Int, rows: Int = 24, extra: [String] = [],
        noColour: Bool = false
    ) throws -> TmuxTerminal {
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        var environment = sandbox.environment
        environment["PULSE_SERVER"] = server.address
        environment["NO_COLOR"] = noColour ? "1" : nil
        return try TmuxTerminal(
            smfplay.path,
            arguments: ["play", file]
                + PlayCommandTests.synthesis + extra,
            environment: environment, workingDirectory: sandbox.work, columns: columns, rows: rows)
    }

    /// Waits for smfplay to end (15 s at most) and expects status 0.
    func expectCleanExit(on terminal: TmuxTerminal) throws {
        let status = terminal.exitStatus(waitingAtMost: 15)
        let screen = try terminal.screen().joined(separator: "\n")
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none: still running"):\n\(screen)")
    }

    /// Waits until the keyboard shows exactly `keys` lit, and returns it as read with its colours.
    func waitForLit(_ keys: Set<Int>, on terminal: TmuxTerminal) throws -> ScreenKeyboard {
        try terminal.waitForScreen("the keys \(keys.sorted()) lit", atMost: 10) { ScreenKeyboard($0)?.litKeys == keys }
        // Read again with colours; a frame may have been drawn in between.
        for _ in 0..<20 {
            if let keyboard = ScreenKeyboard(try terminal.screen(attributes: true)), keyboard.litKeys == keys { return keyboard }
            usleep(20_000)
        }
        throw TestFailure("the keys \(keys.sorted()) went out before they could be read with their colours")
    }

    @Test("160 columns: the whole keyboard, C-1 to G9; C–E–G lit in one colour, then D–F♯–A in another; status 0 at the end")
    func wholeKeyboardShowsTheChords() throws {
        let sandbox = try Sandbox()
        try sandbox.write("chords.mid", ChordSong.file(ChordSong.twoChords))
        let terminal = try startPlaying(sandbox, "chords.mid", columns: 160)

        let first = try waitForLit([60, 64, 67], on: terminal)
        #expect(first.octaveColumns == Dictionary(uniqueKeysWithValues: (-1...9).map { ($0, 14 * ($0 + 1)) }), "labels: \(first.octaveColumns)")
        #expect(first.width == 150, "the keyboard is \(first.width) columns wide")
        let firstColours = Set(first.lit.values)
        #expect(firstColours.count == 1 && firstColours.first! != nil, "C–E–G lit in \(firstColours)")
        // Unlit keys look alike, and unlike a lit one.
        #expect(
            first.whiteKeyColours.count == 1 && first.blackKeyColours.count == 1,
            "white keys in \(first.whiteKeyColours), black keys in \(first.blackKeyColours)")
        #expect(first.whiteKeyColours.isDisjoint(with: firstColours) && first.blackKeyColours.isDisjoint(with: firstColours))
        #expect(first.whiteKeyColours != first.blackKeyColours)

        let second = try waitForLit([62, 66, 69], on: terminal)
        let secondColours = Set(second.lit.values)
        #expect(secondColours.count == 1 && secondColours.isDisjoint(with: firstColours), "D–F♯–A lit in \(secondColours), C–E–G in \(firstColours)")
        #expect(second.whiteKeyColours == first.whiteKeyColours && second.blackKeyColours == first.blackKeyColours)

        try expectCleanExit(on: terminal)
        // No line of the view ran past the terminal's width (which would have wrapped it).
        #expect(try terminal.screen().allSatisfy { $0.count <= 160 })
    }

    @Test("60 columns: the octave the song plays, C4 to B4, with the same keys lit")
    func narrowTerminalShowsTheSongsOctave() throws {
        let sandbox = try Sandbox()
        try sandbox.write("chords.mid", ChordSong.file(ChordSong.twoChords))
        let terminal = try startPlaying(sandbox, "chords.mid", columns: 60)
        let first = try waitForLit([60, 64, 67], on: terminal)
        #expect(first.octaveColumns == [4: 0] && first.width == 14, "labels \(first.octaveColumns), \(first.width) columns")
        let second = try waitForLit([62, 66, 69], on: terminal)
        #expect(Set(second.lit.values).isDisjoint(with: Set(first.lit.values)))
        try expectCleanExit(on: terminal)
    }

    @Test("NO_COLOR: no colour at all, and the lit keys still read by their ●")
    func withoutColours() throws {
        let sandbox = try Sandbox()
        try sandbox.write("chords.mid", ChordSong.file(ChordSong.twoChords))
        let terminal = try startPlaying(sandbox, "chords.mid", columns: 60, noColour: true)
        let first = try waitForLit([60, 64, 67], on: terminal)
        #expect(first.lit.values.allSatisfy { $0 == nil } && first.whiteKeyColours == [nil] && first.blackKeyColours == [nil])
        _ = try waitForLit([62, 66, 69], on: terminal)
        try expectCleanExit(on: terminal)
    }

    @Test("--no-keyboard: the view without the keyboard")
    func noKeyboard() throws {
        let sandbox = try Sandbox()
        try sandbox.write("chords.mid", ChordSong.file(ChordSong.twoChords))
        let terminal = try startPlaying(sandbox, "chords.mid", columns: 160, extra: ["--no-keyboard"])
        let screen = try terminal.waitFor("chords.mid")
        // Well into the first chord, the view is there and no keyboard under it.
        try terminal.waitForScreen("0:01", atMost: 10) { $0.contains { $0.contains("0:01") } }
        let playing = try terminal.screen()
        #expect(ScreenKeyboard(playing) == nil, "\(playing.joined(separator: "\n"))")
        #expect(!playing.contains { $0.contains("●") || $0.contains("▕") }, "\(playing.joined(separator: "\n"))")
        #expect(screen.contains { $0.contains("space pause") })
        try expectCleanExit(on: terminal)
    }
}
