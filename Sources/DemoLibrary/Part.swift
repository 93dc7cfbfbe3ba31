import SMF

/// A message at a tick, with its rank among messages at the same tick.
struct TimedMessage {
    /// What comes first at one tick: names and settings, then program and
    /// controllers, then the notes that end, lyrics, and the notes that start.
    enum Rank: Int, Comparable {
        case trackName, meta, program, controller, noteOff, lyric, noteOn

        static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
    }

    var tick: Int
    var rank: Rank
    var message: MIDIMessage

    /// Sorts by tick, then rank; messages that tie keep their order, so the result never varies.
    static func ordered(_ messages: [TimedMessage]) -> [TimedMessage] {
        messages.enumerated().sorted { a, b in
            (a.element.tick, a.element.rank.rawValue, a.offset) < (b.element.tick, b.element.rank.rawValue, b.offset)
        }.map(\.element)
    }
}

/// One instrument of a piece on one channel: its notes, pedal and lyrics. It becomes one
/// track of a format 1 file, or one channel of a format 0 file.
struct Part {
    struct Note {
        /// MIDI note number (60 is middle C).
        var pitch: Int
        var start: Int
        /// The tick at which the note is released.
        var end: Int
        var velocity: Int
    }

    /// The track name.
    let name: String
    /// 0–15.
    let channel: UInt8
    /// The General MIDI program (0–127).
    let program: UInt8
    /// The instrument's name, for the instrument name meta event.
    let instrument: String
    private(set) var notes: [Note] = []
    private(set) var controllers: [(tick: Int, controller: UInt8, value: UInt8)] = []
    private(set) var lyrics: [(tick: Int, text: String)] = []

    init(name: String, channel: UInt8, program: UInt8, instrument: String) {
        self.name = name
        self.channel = channel
        self.program = program
        self.instrument = instrument
    }

    /// Acoustic Grand Piano.
    static func piano(_ name: String, channel: UInt8) -> Part {
        Part(name: name, channel: channel, program: 0, instrument: "Acoustic Grand Piano")
    }

    /// Harpsichord.
    static func harpsichord(_ name: String, channel: UInt8) -> Part {
        Part(name: name, channel: channel, program: 6, instrument: "Harpsichord")
    }

    /// Adds a note sounding from `start` for `length` ticks.
    mutating func note(_ pitch: Int, at start: Int, length: Int, velocity: Int) {
        precondition((0...127).contains(pitch) && start >= 0 && length > 0, "note \(pitch) at \(start) for \(length) ticks")
        notes.append(Note(pitch: pitch, start: start, end: start + length, velocity: min(max(velocity, 1), 127)))
    }

    /// Presses (127) or releases (0) the sustain pedal, controller 64.
    mutating func pedal(down: Bool, at tick: Int) {
        controllers.append((tick, 64, down ? 127 : 0))
    }

    /// Changes the pedal at each of `ticks`, as a pianist does on each new harmony: up on the
    /// change, down again `delay` ticks later, so the old harmony stops and the new one is held.
    /// The pedal is released for good at `release`.
    mutating func pedalChanges(at ticks: [Int], delay: Int = ticksPerQuarter / 8, release: Int) {
        for (index, tick) in ticks.enumerated() {
            if index > 0 { pedal(down: false, at: tick) }
            pedal(down: true, at: tick + delay)
        }
        pedal(down: false, at: release)
    }

    /// Adds a lyric syllable (meta event 0x05).
    mutating func lyric(_ text: String, at tick: Int) {
        lyrics.append((tick, text))
    }

    /// The last tick at which anything happens in this part.
    var endTick: Int {
        max(notes.map(\.end).max() ?? 0, controllers.map(\.tick).max() ?? 0, lyrics.map(\.tick).max() ?? 0)
    }

    /// The program change, controllers, notes and lyrics, timed; `header` messages
    /// (names) go first at tick 0.
    func messages(header: [MIDIMessage]) -> [TimedMessage] {
        checkNoOverlaps()
        let channel = channel
        var result = header.map { TimedMessage(tick: 0, rank: .meta, message: $0) }
        result.append(TimedMessage(tick: 0, rank: .program, message: .programChange(channel: channel, program: program)))
        for (tick, controller, value) in controllers {
            result.append(
                TimedMessage(tick: tick, rank: .controller, message: .controlChange(channel: channel, controller: controller, value: value)))
        }
        for (tick, text) in lyrics {
            result.append(TimedMessage(tick: tick, rank: .lyric, message: .meta(.text(.lyric, Array(text.utf8)))))
        }
        for note in notes {
            result.append(
                TimedMessage(
                    tick: note.start, rank: .noteOn,
                    message: .noteOn(channel: channel, note: UInt8(note.pitch), velocity: UInt8(note.velocity))))
            result.append(
                TimedMessage(
                    tick: note.end, rank: .noteOff,
                    message: .noteOff(channel: channel, note: UInt8(note.pitch), velocity: 64)))
        }
        return result
    }

    /// A key struck again before it was released would make the two notes' ends ambiguous.
    private func checkNoOverlaps() {
        let sorted = notes.sorted { ($0.pitch, $0.start) < ($1.pitch, $1.start) }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.pitch == next.pitch {
            precondition(
                next.start >= previous.end,
                "\(name): note \(next.pitch) starts at tick \(next.start) before the same note ends at \(previous.end)")
        }
    }
}
