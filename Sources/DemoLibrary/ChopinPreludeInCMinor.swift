import SMF

/// Frédéric Chopin, Prelude in C minor, Op. 28 No. 20 (Largo): all 13 bars of chords.
///
/// Bars 1–4 fortissimo; bars 5–8 piano; bars 9–12 repeat them pianissimo; bar 13 is the
/// final chord under a fermata. The pedal changes on every beat, and the tempo holds
/// back at the two "riten." marks and at the end.
enum ChopinPreludeInCMinor {
    static let path = "ショパン/Preludes/Prelude Op.28 No.20.mid"

    static var piece: DemoPiece {
        DemoPiece(path: path, file: score().midiFile(format: .multipleTracksSynchronous))
    }

    /// The right hand's chords in bars 5–8, which come back as bars 9–12, melody on top.
    /// `swell` puts six dynamics on the last six beats (the crescendo of bars 11–12).
    private static func answerChords(swell: [String] = Array(repeating: "", count: 6)) -> String {
        """
        [Eb4 G4 Eb5]/4 [Eb4 Ab4 Eb5] [D4 D5] [D4 G4 D5] |
        [C4 G4 C5]/4 [C4 D4 F#4 D5] [D4 G4 B4]/8. [C4 A4]/16 [B3 D4 G4]/4 |
        [C4 G4 C5]/4 [Ab3 C4 Ab4] \(swell[0]) [G3 D4] \(swell[1]) [G3 C4 Eb4] |
        \(swell[2]) [Eb3 Ab3 C4 Eb4]/4 \(swell[3]) [F3 Ab3 Db4 F4] \(swell[4]) [F3 G3 B3] \(swell[5]) [Eb3 G3 C4] |
        """
    }

    /// The right hand's inner voice in bars 5–8 and 9–12, where it moves against the chords.
    private static let answerInner = """
        r/2 Ab4/8. F#4/16 r/4 |
        r/1 |
        r/2 G4/8. F4/16 r/4 |
        r/2 Eb4/8. D4/16 r/4 |
        """

    /// The left hand's octaves in bars 5–8 and 9–12, the bass falling by semitones from C;
    /// `swell` as for ``answerChords(swell:)``.
    private static func answerBass(swell: [String] = Array(repeating: "", count: 6)) -> String {
        """
        [C2 C3]/4 [C3 C4] [B2 B3] [Bb2 Bb3] |
        [A2 A3] [Ab2 Ab3] [G2 G3] [F2 F3] |
        [Eb2 Eb3] [F2 F3] \(swell[0]) [B1 B2] \(swell[1]) [C2 C3] |
        \(swell[2]) [Ab1 Ab2] \(swell[3]) [Db1 Db2] \(swell[4]) [G1 G2] \(swell[5]) [C1 C2] |
        """
    }

    static func score() -> Score {
        var score = Score(
            title: "Prelude Op.28 No.20 in C minor", composer: "Frédéric Chopin",
            meter: Meter(4, 4), key: (-3, true), bpm: 48)
        let meter = score.meter
        var right = Part.piano("Right hand", channel: 0)
        var left = Part.piano("Left hand", channel: 1)

        // Bars 1–4, fortissimo, growing through bars 3–4.
        right.play(
            """
            !ff [G3 C4 Eb4 G4]/4 [Ab3 C4 Eb4 Ab4] [Eb4 G4]/8. [D4 F4]/16 [Eb3 G3 C4 Eb4]/4 |
            [Eb3 Ab3 C4 Eb4]/4 [F3 Ab3 Db4 F4] [C4 Eb4]/8. [Bb3 Db4]/16 [C3 Eb3 Ab3 C4]/4 |
            !106 [D3 F3 B3 D4]/4 [E3 G3 Bb3 C4 E4] G4/8. F4/16 [G3 C4 Eb4]/4 |
            !110 [F#3 C4 D4]/4 [G3 B3 D4 G4] B4/8. A4/16 [B3 D4 G4]/4 |
            """, from: 0, meter: meter, topVoiceAccent: 8)
        right.play(
            """
            !90 r/2 [G3 B3]/4 r |
            r/2 [Db3 Eb3 G3]/4 r |
            r/2 [Ab3 C4]/4 r |
            r/2 [C4 D4 F#4]/4 r |
            """, from: 0, meter: meter)
        left.play(
            """
            !ff [C2 C3]/4 [F1 F2] [G1 G2] [C2 G2 C3] |
            [Ab1 Ab2] [Db1 Db2] [Eb1 Eb2] [Ab1 Ab2] |
            !106 [G1 G2] [C1 C2] [F1 F2] [C2 C3] |
            !110 [D2 A2 D3] [G1 G2] [D1 D2] [G1 G2] |
            """, from: 0, meter: meter)

        // Bars 5–8 piano, bars 9–12 pianissimo with a swell at the end of bar 11 into bar 12.
        right.play("!p " + answerChords(), from: score.tick(bar: 5), meter: meter, topVoiceAccent: 8)
        right.play("!44 " + answerInner, from: score.tick(bar: 5), meter: meter)
        left.play("!p " + answerBass(), from: score.tick(bar: 5), meter: meter)
        let swell = ["!40", "!44", "!48", "!52", "!56", "!60"]
        right.play("!pp " + answerChords(swell: swell), from: score.tick(bar: 9), meter: meter, topVoiceAccent: 8)
        right.play("!30 " + answerInner, from: score.tick(bar: 9), meter: meter)
        left.play("!pp " + answerBass(swell: swell), from: score.tick(bar: 9), meter: meter)

        // Bar 13: the final chord, held under the fermata.
        right.play("!56 [C4 Eb4 G4 C5]/1 |", from: score.tick(bar: 13), meter: meter, detach: 0, topVoiceAccent: 6)
        left.play("!52 [C3 G3]/1 |", from: score.tick(bar: 13), meter: meter, detach: 0)

        // The pedal, on both hands' channels: a change on every beat of bars 1–12, and on the last chord.
        let beats = (1...12).flatMap { bar in (1...4).map { score.tick(bar: bar, beat: $0) } } + [score.tick(bar: 13)]
        right.pedalChanges(at: beats, release: score.tick(bar: 14))
        left.pedalChanges(at: beats, release: score.tick(bar: 14))

        // Tempo: riten. at the last beat of bar 7, a tempo at bar 9, riten. from the third
        // beat of bar 11 to the end.
        score.tempo(44, at: score.tick(bar: 7, beat: 4))
        score.tempo(42, at: score.tick(bar: 8))
        score.tempo(40, at: score.tick(bar: 8, beat: 4))
        score.tempo(48, at: score.tick(bar: 9))
        score.tempos([45, 43, 41, 39, 37, 35], from: score.tick(bar: 11, beat: 3), every: ticksPerQuarter)
        score.tempo(30, at: score.tick(bar: 13))
        score.parts = [right, left]
        return score
    }
}
