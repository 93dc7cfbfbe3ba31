import SMF

/// Erik Satie, Gymnopédie No. 1 (1888), "Lent et douloureux": the first 12 bars.
///
/// Four bars of the rocking accompaniment (G major seventh, D major seventh), then the
/// melody's first phrase, which comes to rest on a long F♯ over the D chord.
enum SatieGymnopedie {
    static let path = "Satie/Gymnopédies/Gymnopédie No.1.mid"

    static var piece: DemoPiece {
        DemoPiece(path: path, file: score().midiFile(format: .multipleTracksSynchronous))
    }

    static func score() -> Score {
        var score = Score(title: "Gymnopédie No.1", composer: "Erik Satie", meter: Meter(3, 4), key: (2, false), bpm: 66)
        let meter = score.meter
        var melody = Part.piano("Melody", channel: 0)
        var left = Part.piano("Left hand", channel: 1)

        melody.play(
            """
            r/2. | r/2. | r/2. | r/2. |
            !44 r/4 F#5 !47 A5 | !50 G5 F#5 C#5 | !52 B4 C#5 !54 D5 |
            !48 A4/2. | !42 F#4/2.~ | F#4/2.~ | F#4/2.~ | F#4/2. |
            """, from: 0, meter: meter)
        // The left hand rocks between G and D in the bass, with a chord on the second beat:
        // G major seventh (G B D F♯), then D major seventh (D A C♯ F♯), six times.
        let bass = String(repeating: "G2/2. | D2/2. | ", count: 6)
        let chords = String(repeating: "r/4 [B3 D4 F#4]/2 | r/4 [A3 C#4 F#4]/2 | ", count: 6)
        left.play("!46 " + bass, from: 0, meter: meter, detach: 0)
        left.play("!34 " + chords, from: 0, meter: meter, detach: 0)

        // A fresh pedal each bar, on both channels.
        let bars = (1...12).map { score.tick(bar: $0) }
        melody.pedalChanges(at: bars, release: score.tick(bar: 13))
        left.pedalChanges(at: bars, release: score.tick(bar: 13))

        score.tempo(62, at: score.tick(bar: 11))
        score.tempo(56, at: score.tick(bar: 12))
        score.parts = [melody, left]
        return score
    }
}
