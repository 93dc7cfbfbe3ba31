import SMF

/// J. S. Bach, The Well-Tempered Clavier, Book I: Prelude No. 1 in C major, BWV 846.
///
/// All 35 bars. Bars 1–32 are one figure over a chord of five notes: the bass holds the
/// lowest note for half a bar, the tenor holds the second from the next sixteenth, and
/// the right hand plays the upper three twice in sixteenths; each half bar is the same.
/// Bars 33–34 break the figure over a C pedal, and bar 35 is the final chord.
enum BachPreludeInC {
    static let path = "Bach/Well-Tempered Clavier/Prelude in C major BWV 846.mid"

    /// The chords of bars 1–32, lowest note first, as in the Bach-Gesellschaft edition
    /// (without the bar that Schwencke inserted after bar 22).
    static let chords = [
        "C4 E4 G4 C5 E5", "C4 D4 A4 D5 F5", "B3 D4 G4 D5 F5", "C4 E4 G4 C5 E5", // 1–4
        "C4 E4 A4 E5 A5", "C4 D4 F#4 A4 D5", "B3 D4 G4 D5 G5", "B3 C4 E4 G4 C5", // 5–8
        "A3 C4 E4 G4 C5", "D3 A3 D4 F#4 C5", "G3 B3 D4 G4 B4", "G3 Bb3 E4 G4 C#5", // 9–12
        "F3 A3 D4 A4 D5", "F3 Ab3 D4 F4 B4", "E3 G3 C4 G4 C5", "E3 F3 A3 C4 F4", // 13–16
        "D3 F3 A3 C4 F4", "G2 D3 G3 B3 F4", "C3 E3 G3 C4 E4", "C3 G3 Bb3 C4 E4", // 17–20
        "F2 F3 A3 C4 E4", "F#2 C3 A3 C4 Eb4", "Ab2 F3 B3 C4 D4", "G2 F3 G3 B3 D4", // 21–24
        "G2 E3 G3 C4 E4", "G2 D3 G3 C4 F4", "G2 D3 G3 B3 F4", "G2 Eb3 A3 C4 F#4", // 25–28
        "G2 E3 G3 C4 G4", "G2 D3 G3 C4 F4", "G2 D3 G3 B3 F4", "C2 C3 G3 Bb3 E4", // 29–32
    ]

    static let bars = 35

    static var piece: DemoPiece {
        DemoPiece(path: path, file: score().midiFile(format: .multipleTracksSynchronous))
    }

    /// How loud a bar is: quiet at first, growing through the dominant pedal (bars 24–31).
    static func level(bar: Int) -> Int {
        switch bar {
        case 1...4: 56
        case 5...11: 60
        case 12...19: 64
        case 20...23: 68
        case 24...31: 72
        case 32: 68
        default: 62
        }
    }

    static func score() -> Score {
        var score = Score(
            title: "Prelude in C major BWV 846", composer: "Johann Sebastian Bach",
            meter: Meter(4, 4), key: (0, false), bpm: 72)
        var right = Part.piano("Right hand", channel: 0)
        var left = Part.piano("Left hand", channel: 1)
        let sixteenth = ticksPerQuarter / 4
        let release = 10

        for (index, chord) in chords.enumerated() {
            let bar = index + 1
            let notes = Notation.pitches(chord)
            let level = level(bar: bar)
            for half in 0..<2 {
                let start = score.tick(bar: bar) + half * 8 * sixteenth
                left.note(notes[0], at: start, length: 8 * sixteenth - release, velocity: level + 6)
                left.note(notes[1], at: start + sixteenth, length: 7 * sixteenth - release, velocity: level - 4)
                for (step, pitch) in [notes[2], notes[3], notes[4], notes[2], notes[3], notes[4]].enumerated() {
                    right.note(
                        pitch, at: start + (2 + step) * sixteenth, length: sixteenth - release,
                        velocity: level + (step % 3 == 0 ? 4 : 0))
                }
            }
        }

        // Bars 33–34 over the tonic pedal: a falling figure on F, then on G7, and the final chord.
        let meter = score.meter
        left.play("!68 C2/1 | C2/1 |", from: score.tick(bar: 33), meter: meter)
        left.play("!60 r/16 C3/8.~ C3/2. | r/16 B2/8.~ B2/2. |", from: score.tick(bar: 33), meter: meter)
        right.play("!62 r/8 F3/16 A3 C4 F4 C4 A3 C4 A3 F3 A3 F3 D3 F3 D3 |", from: score.tick(bar: 33), meter: meter)
        right.play("!60 r/8 G4/16 B4 D5 F5 D5 B4 D5 B4 G4 B4 D4 F4 E4 D4 |", from: score.tick(bar: 34), meter: meter)

        // Bar 35: the C major chord, spread from the bass up (arpeggiato), held under the fermata.
        let last = score.tick(bar: 35)
        let end = score.tick(bar: 36)
        for (offset, pitch) in Notation.pitches("C2 C3").enumerated() {
            left.note(pitch, at: last + 20 * offset, length: end - last - 20 * offset, velocity: 64)
        }
        for (offset, pitch) in Notation.pitches("E4 G4 C5").enumerated() {
            right.note(pitch, at: last + 40 + 20 * offset, length: end - last - 40 - 20 * offset, velocity: 62 + 2 * offset)
        }

        // Broaden in the last two bars.
        score.tempo(69, at: score.tick(bar: 33))
        score.tempos([66, 63, 60, 57], from: score.tick(bar: 34), every: ticksPerQuarter)
        score.tempo(50, at: last)
        score.parts = [right, left]
        return score
    }
}
