/// A compact way to write music in code, close to how a musician reads it.
///
/// A line is a list of tokens separated by spaces:
///
/// - `C4`, `F#5`, `Bb3`: a note, in scientific pitch (`C4` is middle C, MIDI note 60).
/// - `[C4 E4 G4]`: a chord.
/// - `r`: a rest.
/// - A note, chord or rest may end in a duration: `/1` whole, `/2`, `/4`, `/8`, `/16`, `/32`,
///   each with dots (`/8.` is a dotted eighth). Without one it lasts as long as the one before.
/// - A trailing `~` ties a note (every note of a chord) to the next one of the same pitch.
/// - `|`: a bar line. It must fall on a bar line of the meter, which catches wrong durations.
/// - `!pp`, `!p`, `!mp`, `!mf`, `!f`, `!ff` or `!72`: the velocity from here on.
enum Notation {
    /// The MIDI note number of a pitch name.
    static func pitch(_ name: some StringProtocol) -> Int {
        var rest = Substring(name)
        guard let letter = rest.popFirst(), let semitone = semitones[letter] else { fatalError("not a pitch name: \(name)") }
        var accidental = 0
        while let sign = rest.first, sign == "#" || sign == "b" {
            accidental += sign == "#" ? 1 : -1
            rest = rest.dropFirst()
        }
        guard let octave = Int(rest) else { fatalError("pitch name without an octave: \(name)") }
        return (octave + 1) * 12 + semitone + accidental
    }

    private static let semitones: [Character: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]

    /// The MIDI note numbers of pitch names separated by spaces.
    static func pitches(_ names: String) -> [Int] {
        names.split(separator: " ").map { pitch($0) }
    }

    static let dynamics = ["ppp": 24, "pp": 36, "p": 50, "mp": 64, "mf": 78, "f": 92, "ff": 104, "fff": 116]

    /// Splits a line into tokens, keeping each chord in brackets together.
    static func tokens(_ line: String) -> [Substring] {
        var tokens: [Substring] = []
        var start: String.Index?
        var depth = 0
        for index in line.indices {
            let character = line[index]
            if character == "[" { depth += 1 }
            if character == "]" { depth -= 1 }
            if character.isWhitespace && depth == 0 {
                if let tokenStart = start { tokens.append(line[tokenStart..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let tokenStart = start { tokens.append(line[tokenStart...]) }
        precondition(depth == 0, "unbalanced chord brackets in: \(line)")
        return tokens
    }

    /// The ticks of a duration such as `/8.`.
    static func ticks(ofDuration text: Substring) -> Int {
        let dots = text.reversed().prefix { $0 == "." }.count
        guard let value = Int(text.dropLast(dots)), [1, 2, 4, 8, 16, 32].contains(value) else {
            fatalError("not a duration: /\(text)")
        }
        let base = 4 * ticksPerQuarter / value
        var total = base
        for dot in 0..<dots { total += base >> (dot + 1) }
        return total
    }
}

extension Part {
    /// Plays a line written in ``Notation`` from tick `start`.
    ///
    /// Each note sounds for its written length less `detach` ticks, so repeated notes are
    /// heard; `topVoiceAccent` is added to the velocity of the highest note of each chord
    /// (a pianist voices the melody). Returns the ticks at which notes or chords begin,
    /// tied continuations left out, for placing lyrics.
    @discardableResult
    mutating func play(
        _ line: String, from start: Int, meter: Meter, velocity: Int = Notation.dynamics["mf"]!,
        detach: Int = 10, topVoiceAccent: Int = 0
    ) -> [Int] {
        var tick = start
        var duration = ticksPerQuarter
        var velocity = velocity
        var onsets: [Int] = []
        // Notes tied over, by pitch: where and how loud they began.
        var tied: [Int: (start: Int, velocity: Int)] = [:]
        for token in Notation.tokens(line) {
            if token == "|" {
                precondition(meter.isBarline(tick), "\(name): bar line at tick \(tick), which is not the start of a bar, in: \(line)")
                continue
            }
            if token.hasPrefix("!") {
                let mark = String(token.dropFirst())
                guard let level = Notation.dynamics[mark] ?? Int(mark) else { fatalError("unknown dynamic: \(token)") }
                velocity = level
                continue
            }
            var body = token
            let isTied = body.hasSuffix("~")
            if isTied { body = body.dropLast() }
            if let slash = body.lastIndex(of: "/"), !body[slash...].contains("]") {
                duration = Notation.ticks(ofDuration: body[body.index(after: slash)...])
                body = body[..<slash]
            }
            defer { tick += duration }
            if body == "r" {
                precondition(!isTied, "a rest cannot be tied: \(token)")
                continue
            }
            let pitches: [Int]
            if body.hasPrefix("[") && body.hasSuffix("]") {
                pitches = Notation.pitches(String(body.dropFirst().dropLast()))
            } else {
                pitches = [Notation.pitch(body)]
            }
            let top = pitches.max()!
            var startsSomething = false
            for pitch in pitches {
                let voiced = velocity + (pitches.count > 1 && pitch == top ? topVoiceAccent : 0)
                let begun = tied.removeValue(forKey: pitch)
                if begun == nil { startsSomething = true }
                if isTied {
                    tied[pitch] = begun ?? (tick, voiced)
                } else {
                    let noteStart = begun?.start ?? tick
                    let end = tick + duration
                    note(pitch, at: noteStart, length: max(end - noteStart - detach, 1), velocity: begun?.velocity ?? voiced)
                }
            }
            if startsSomething { onsets.append(tick) }
        }
        precondition(tied.isEmpty, "\(name): a tie leads nowhere at the end of: \(line)")
        return onsets
    }
}
