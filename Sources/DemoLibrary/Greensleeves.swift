import SMF

/// Greensleeves (English, 16th century): a verse and the refrain, with the words as lyric
/// events, karaoke style. A format 0 file: one track, melody and guitar on two channels.
///
/// The melody is in A minor in 6/8 with an eighth-note pickup, written as its own bar of 1/8.
/// Lyrics follow the SMF lyric practice (RP-017): one event per syllable, a space ending
/// each word, a carriage return ending each line and a line feed ending the verse.
enum Greensleeves {
    static let path = "Traditional/Folk/Greensleeves.mid"

    static var piece: DemoPiece {
        DemoPiece(path: path, file: score().midiFile(format: .singleTrack))
    }

    /// The tune, from the pickup: the verse (bars 1–8) and the refrain (bars 9–16).
    static let melody = """
        A4/8 |
        C5/4 D5/8 E5/8. F5/16 E5/8 | D5/4 B4/8 G4/8. A4/16 B4/8 |
        C5/4 A4/8 A4/8. G#4/16 A4/8 | B4/4 G#4/8 E4/4 A4/8 |
        C5/4 D5/8 E5/8. F5/16 E5/8 | D5/4 B4/8 G4/8. A4/16 B4/8 |
        C5/8. B4/16 A4/8 G#4/8. F#4/16 G#4/8 | A4/4. r/4. |
        G5/4. G5/8. F#5/16 E5/8 | D5/4 B4/8 G4/8. A4/16 B4/8 |
        C5/4 A4/8 A4/8. G#4/16 A4/8 | B4/4 G#4/8 E4/4. |
        G5/4. G5/8. F#5/16 E5/8 | D5/4 B4/8 G4/8. A4/16 B4/8 |
        C5/8. B4/16 A4/8 G#4/8. F#4/16 G#4/8 | A4/2. |
        """

    /// One entry per note of the melody: the syllable sung on it, or "_" where the
    /// syllable before goes on (a melisma).
    static let syllables = [
        "A",
        "las, ", "my ", "love, ", "you ", "_", "do ", "me ", "wrong,\r", "To ", "_",
        "cast ", "me ", "off ", "dis", "_", "cour", "teous", "ly.\r", "For ",
        "I ", "have ", "loved ", "you ", "_", "well ", "and ", "long,\r", "_", "De",
        "light", "ing ", "in ", "your ", "com", "pa", "ny.\n",
        "Green", "sleeves ", "_", "was ", "all ", "my ", "joy,\r", "_", "And ",
        "Green", "sleeves ", "was ", "my ", "de", "light,\r", "_", "_",
        "Green", "sleeves ", "was ", "my ", "heart ", "of ", "gold,\r", "_", "And ",
        "who ", "but ", "my ", "la", "dy ", "Green", "sleeves.\n",
    ]

    /// The guitar's chord in each bar after the pickup; two names split the bar in halves.
    static let chords = [
        "Am", "G", "Am", "E", "Am", "G", "Am E", "Am",
        "C", "G", "Am", "E", "C", "G", "Am E", "Am",
    ]

    /// Bass note, then three notes above it, for each chord.
    static let voicings = ["Am": "A2 E3 A3 C4", "G": "G2 D3 G3 B3", "E": "E2 B2 E3 G#3", "C": "C3 G3 C4 E4"]

    static func score() -> Score {
        var meter = Meter(1, 8)
        meter.change(to: 6, 8, atBar: 2)
        var score = Score(
            title: "Greensleeves", composer: "Traditional (English, 16th century)",
            meter: meter, key: (0, true), bpm: 75)
        var voice = Part(name: "Melody", channel: 0, program: 74, instrument: "Recorder")
        var guitar = Part(name: "Guitar", channel: 1, program: 24, instrument: "Acoustic Guitar (nylon)")

        let onsets = voice.play(melody, from: 0, meter: meter, velocity: 84, detach: 20)
        precondition(onsets.count == syllables.count, "\(onsets.count) notes but \(syllables.count) syllables")
        for (tick, syllable) in zip(onsets, syllables) where syllable != "_" {
            voice.lyric(syllable, at: tick)
        }

        // The guitar picks each chord in eighths, up and down, letting the notes ring.
        let eighth = ticksPerQuarter / 2
        for (index, names) in chords.enumerated() {
            let bar = score.tick(bar: index + 2)
            let halves = names.split(separator: " ").map { Notation.pitches(voicings[String($0)]!) }
            if index == chords.count - 1 {
                // The last chord, strummed and held.
                for (string, pitch) in (halves[0] + [Notation.pitch("E4")]).enumerated() {
                    guitar.note(pitch, at: bar + 15 * string, length: 6 * eighth - 15 * string, velocity: 56)
                }
                continue
            }
            let figure =
                halves.count == 1
                ? [[halves[0][0], halves[0][1], halves[0][2]], [halves[0][3], halves[0][2], halves[0][1]]]
                : [[halves[0][0], halves[0][1], halves[0][2]], [halves[1][0], halves[1][1], halves[1][2]]]
            for (half, pitches) in figure.enumerated() {
                let halfStart = bar + half * 3 * eighth
                for (step, pitch) in pitches.enumerated() {
                    let start = halfStart + step * eighth
                    let isBass = half == 0 && step == 0 || halves.count == 2 && step == 0
                    guitar.note(pitch, at: start, length: halfStart + 3 * eighth - start - 10, velocity: isBass ? 58 : 46)
                }
            }
        }

        score.marker("Verse", at: 0)
        score.marker("Refrain", at: score.tick(bar: 10))
        score.tempo(70, at: score.tick(bar: 16))
        score.tempo(62, at: score.tick(bar: 17))
        score.parts = [voice, guitar]
        return score
    }
}
