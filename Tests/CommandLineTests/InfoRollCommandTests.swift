import Foundation
import TestSupport
import Testing

/// `smfplay info --roll`: the keyboard, then the song's notes under their keys, one row per slice of time.
@Suite("smfplay info --roll")
struct InfoRollCommandTests {
    /// The roll as printed (not on a terminal: 80 columns, no colours): the line of octave labels,
    /// and each row's time label and the columns where it has a note.
    struct PrintedRoll {
        /// The column of each octave's C, by octave.
        var octaveColumns: [Int: Int] = [:]
        /// Each row's time, and the columns of its line where it has a note (`█`).
        var rows: [(time: String, notes: Set<Int>)] = []

        init(_ lines: [String]) throws {
            let labelRow = try #require(
                lines.firstIndex { KeyboardCommandTests.ScreenKeyboard.octaveLabels(in: $0) != nil },
                "no line of octave labels in:\n\(lines.joined(separator: "\n"))")
            octaveColumns = KeyboardCommandTests.ScreenKeyboard.octaveLabels(in: lines[labelRow])!
            for line in lines[(labelRow + 1)...] {
                // "  0:01.5 ███": the time, then the notes, in the keyboard's columns.
                guard let time = line.split(separator: " ").first, time.contains(":"), time.first?.isNumber == true else { break }
                let cells = Array(line)
                rows.append((String(time), Set(cells.indices.filter { cells[$0] == "█" })))
            }
        }
    }

    @Test("two chords, 2 s each: 40 rows of 0.1 s, C–E–G under their keys in the first 20, D–F♯–A in the next 20")
    func chordsUnderTheirKeys() throws {
        let sandbox = try Sandbox()
        try sandbox.write("chords.mid", ChordSong.file(ChordSong.twoChords))
        let result = try sandbox.run(["info", "--roll", "chords.mid"])
        #expect(result.succeeded, "\(result)")
        #expect(!result.stdout.hasTerminalControls, "\(result)")
        #expect(result.stdoutLines.allSatisfy { $0.count < 80 }, "\(result)")
        // The roll is part of the file's block: indented like its other lines.
        let block = Array(result.stdoutLines.drop { $0 != "chords.mid" }.dropFirst().prefix { $0.hasPrefix(" ") })
        let roll = try PrintedRoll(block)
        // In 80 columns the whole keyboard does not fit: the octave the song plays.
        let c4 = try #require(roll.octaveColumns[4], "\(result)")
        #expect(roll.octaveColumns.count == 1, "\(result)")
        #expect(roll.rows.count == 40, "\(result)")
        #expect(roll.rows.map(\.time) == (0..<40).map { String(format: "0:%02d.%d", $0 / 10, $0 % 10) }, "\(result)")
        func columns(_ keys: [Int]) -> Set<Int> {
            Set(keys.flatMap { ChordSong.topColumns(ofKey: $0, octaveLabelColumn: c4) })
        }
        for (index, row) in roll.rows.enumerated() {
            let expected = index < 20 ? columns([60, 64, 67]) : columns([62, 66, 69])
            #expect(row.notes == expected, "row \(row.time): notes at columns \(row.notes.sorted()), expected \(expected.sorted())")
        }
    }

    @Test("--roll-rows: fewer, longer rows")
    func fewerRows() throws {
        let sandbox = try Sandbox()
        try sandbox.write("chords.mid", ChordSong.file(ChordSong.twoChords))
        let result = try sandbox.run(["info", "--roll", "--roll-rows", "8", "chords.mid"])
        #expect(result.succeeded, "\(result)")
        let roll = try PrintedRoll(result.stdoutLines)
        #expect(roll.rows.map(\.time) == ["0:00.0", "0:00.5", "0:01.0", "0:01.5", "0:02.0", "0:02.5", "0:03.0", "0:03.5"], "\(result)")
    }

    @Test("with --json, or no rows allowed: a usage error naming the option")
    func badOptions() throws {
        let sandbox = try Sandbox()
        try sandbox.write("chords.mid", ChordSong.file(ChordSong.twoChords))
        for (arguments, option) in [(["--roll", "--json"], "--json"), (["--roll", "--roll-rows", "0"], "--roll-rows")] {
            let result = try sandbox.run(["info"] + arguments + ["chords.mid"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains(option), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }
}
