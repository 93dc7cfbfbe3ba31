import SMF

/// J. S. Bach, Two-Part Inventions: the opening bars of Nos. 1, 8 and 10, to their first
/// cadence, on the harpsichord. Their names ("No.1", "No.8", "No.10") sort differently
/// as text and in natural order, which the library browser must get right.
///
/// Notes follow the Bach-Gesellschaft text; ornaments are left out, and the last note of
/// each excerpt is held where the piece goes on.
enum BachInventions {
    static var invention1: DemoPiece {
        DemoPiece(path: "Bach/Inventions/Invention No.1 BWV 772.mid", file: invention1Score().midiFile(format: .multipleTracksSynchronous))
    }

    static var invention8: DemoPiece {
        DemoPiece(path: "Bach/Inventions/Invention No.8 BWV 779.mid", file: invention8Score().midiFile(format: .multipleTracksSynchronous))
    }

    static var invention10: DemoPiece {
        DemoPiece(path: "Bach/Inventions/Invention No.10 BWV 781.mid", file: invention10Score().midiFile(format: .multipleTracksSynchronous))
    }

    /// Two voices, one per hand and channel.
    private static func score(
        title: String, meter: Meter, key: (Int8, Bool), bpm: Double,
        right: String, left: String, detach: Int
    ) -> Score {
        var score = Score(title: title, composer: "Johann Sebastian Bach", meter: meter, key: key, bpm: bpm)
        var upper = Part.harpsichord("Right hand", channel: 0)
        var lower = Part.harpsichord("Left hand", channel: 1)
        upper.play(right, from: 0, meter: meter, velocity: 80, detach: detach)
        lower.play(left, from: 0, meter: meter, velocity: 76, detach: detach)
        score.parts = [upper, lower]
        return score
    }

    /// No. 1 in C major, BWV 772: bars 1–6, to the cadence in G major on the first beat of bar 7.
    static func invention1Score() -> Score {
        score(
            title: "Invention No.1 in C major BWV 772", meter: Meter(4, 4), key: (0, false), bpm: 76,
            right: """
                r/16 C4 D4 E4 F4 D4 E4 C4 G4/8 C5 B4 C5 |
                D5/16 G4 A4 B4 C5 A4 B4 G4 D5/8 G5 F5 G5 |
                E5/16 A5 G5 F5 E5 G5 F5 A5 G5 F5 E5 D5 C5 E5 D5 F5 |
                E5 D5 C5 B4 A4 C5 B4 D5 C5 B4 A4 G4 F#4 A4 G4 B4 |
                A4/8 D4 C5/8. D5/16 B4 A4 G4 F#4 E4 G4 F#4 A4 |
                G4 B4 A4 C5 B4 D5 C5 E5 D5 B4/32 C5 D5/16 G5 B4/8 A4/16 G4 |
                G4/2
                """,
            left: """
                r/2 r/16 C3 D3 E3 F3 D3 E3 C3 |
                G3/8 G2 r/4 r/16 G3 A3 B3 C4 A3 B3 G3 |
                C4/8 B3 C4 D4 E4 G3 A3 B3 |
                C4 E3 F#3 G3 A3 B3 C4/4~ |
                C4/16 D3 E3 F#3 G3 E3 F#3 D3 G3/8 B2 C3 D3 |
                E3 F#3 G3 E3 B2/8. C3/16 D3/8 D2 |
                """, detach: 16)
    }

    /// No. 8 in F major, BWV 779: bars 1–11, to the cadence in C major on the first beat of bar 12.
    static func invention8Score() -> Score {
        score(
            title: "Invention No.8 in F major BWV 779", meter: Meter(3, 4), key: (-1, false), bpm: 100,
            right: """
                r/8 F4 A4 F4 C5 F4 |
                F5 E5/16 D5 C5 D5 C5 Bb4 A4 Bb4 A4 G4 |
                F4/8 A4 C5 A4 F5 C5 |
                A5/16 C6 Bb5 C6 A5 C6 Bb5 C6 A5 C6 Bb5 C6 |
                F5 A5 G5 A5 F5 A5 G5 A5 F5 A5 G5 A5 |
                D5 F5 E5 F5 D5 F5 E5 F5 D5 F5 E5 F5 |
                B4/8 G4 D5 B4 F5 D5 |
                G5/16 A5 G5 F5 E5 F5 E5 D5 C5 D5 C5 Bb4 |
                A4/8 D5/16 C5 B4 C5 B4 A4 G4 A4 G4 F4 |
                E4 F4 E4 D4 C4/8 C5/16 B4 C5/8 E4 |
                F4 C5 E4 C5 D4 B4 |
                C5/2
                """,
            left: """
                r/2. |
                r/8 F3 A3 F3 C4 F3 |
                F4 E4/16 D4 C4 D4 C4 Bb3 A3 Bb3 A3 G3 |
                F3/8 A3 C4 A3 F4 C4 |
                A4/16 C5 Bb4 C5 A4 C5 Bb4 C5 A4 C5 Bb4 C5 |
                F4 A4 G4 A4 F4 A4 G4 A4 F4 A4 G4 A4 |
                D4 F4 E4 F4 D4 F4 E4 F4 D4 F4 E4 F4 |
                B3/8 G3 C4 G3 E4 C4 |
                F4/16 G4 F4 E4 D4 E4 D4 C4 B3 C4 B3 A3 |
                G3/8 C4/16 B3 A3 B3 A3 G3 F3 G3 F3 E3 |
                D3 E3 D3 C3 G3 F3 E3 F3 G3/8 G2 |
                """, detach: 16)
    }

    /// No. 10 in G major, BWV 781: bars 1–13, to the cadence in D major on the first beat of bar 14.
    static func invention10Score() -> Score {
        score(
            title: "Invention No.10 in G major BWV 781", meter: Meter(9, 8), key: (1, false), bpm: 96,
            right: """
                G4/8 B4 D5 B4 G4 D5 B4 G4 G5 |
                F#5/4 D5/8 A5 F#5 D5 A5 F#5 D5 |
                G5 D5 B4 F5 D5 B4 F5 D5 B4 |
                E5 C5 A4 F#4 A4 C5 E5 D5 C5 |
                D5 B4 G4 E4 G4 B4 D5 C5 B4 |
                C5 A4 F#4 D4 F#4 A4 C5 B4 A4 |
                B4 C5 D5 E5 B4 G5 E5 B4 G5 |
                A4 B4 C#5 D5 A4 F#5 D5 A4 F#5 |
                G4/4.~ G4/8 A4 G4 F#4 G4 E4 |
                F#4 G4 F#4 E4 F#4 D4 A4 B4 C5 |
                B4 C5 B4 A4 B4 G4 E5 F#5 G5 |
                C#5 D5 C#5 B4 C#5 A4 G5 A5 B5 |
                A5 G5 F#5 E5 F#5 D5 A4 D5 C#5 |
                D5/4.
                """,
            left: """
                r/2. r/4. |
                D3/8 F#3 A3 F#3 D3 A3 F#3 D3 C4 |
                B3/4 G3/8 D4 B3 G3 D4 B3 G3 |
                C4 E4 C4 A3 C4 A3 F#3 G3 A3 |
                B3 D4 B3 G3 B3 G3 E3 F#3 G3 |
                A3 C4 A3 F#3 A3 F#3 D3 E3 F#3 |
                G3/4.~ G3/8 F#3 E3 D3 E3 C#3 |
                F#3/4.~ F#3/8 E3 D3 C#3 D3 B2 |
                E3 F#3 G3 A3 E3 C#4 A3 E3 C#4 |
                D4/4.~ D4/8 D3 E3 F#3 E3 D3 |
                G3/4.~ G3/8 E3 F#3 G3 F#3 E3 |
                A3/4.~ A3/8 G3 F#3 E3 D3 C#3 |
                D3 E3 F#3 G3 A3 B3 A3/4 A2/8 |
                D3/4.
                """, detach: 24)
    }
}
