import SMF

/// A short piece in three parts (melody, bass, drums) whose channels, programs and pitches a
/// compatibility song moves around, with the messages that set each part up: the same music
/// written the GS, XG or GM2 way and the plain GM way.
struct Arrangement: Sendable {
    /// Set-up messages at the start (tick 0), in order, then the music from ``musicStart``.
    var setUp: [MIDIMessage] = []
    var melodyChannels: [UInt8] = [0]
    /// Semitones added to the melody and the bass (never to the drums).
    var pitchShift = 0
    var bassChannel: UInt8? = 1
    /// The channel the drum notes are written on; nil for no drums.
    var drumChannel: UInt8? = 9
    /// The notes the drum part plays: kick, snare and hi-hat unless a kit needs others.
    var drumNotes: (low: UInt8, middle: UInt8, high: UInt8) = (36, 38, 42)
    /// Messages half-way through (at two seconds), and which parts play from then on instead.
    var turn: (messages: [MIDIMessage], after: @Sendable (inout Arrangement) -> Void)?

    static let ticksPerQuarter: UInt16 = 480
    /// A quarter note is half a second (120 bpm): a step of the music is a quarter of a second.
    static let step: UInt32 = 240
    static let musicStart: UInt32 = 240
    static let steps = 16
    static let melody: [Int] = [60, 62, 64, 65, 67, 69, 71, 72, 71, 69, 67, 65, 64, 62, 60, 67]

    var file: MIDIFile {
        var track = Track()
        for message in setUp { track.append(message, atTick: 0) }
        var parts = self
        for step in 0..<Self.steps {
            let start = Self.musicStart + UInt32(step) * Self.step
            if step == Self.steps / 2, let turn {
                for message in turn.messages { track.append(message, atTick: start) }
                turn.after(&parts)
            }
            let notes = parts.notes(at: step)
            for (channel, note) in notes { track.append(.noteOn(channel: channel, note: note, velocity: 100), atTick: start) }
            for (channel, note) in notes { track.append(.noteOff(channel: channel, note: note, velocity: 64), atTick: start + Self.step - 20) }
        }
        track.append(.meta(.endOfTrack), atTick: Self.musicStart + UInt32(Self.steps) * Self.step + 240)
        return MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: Self.ticksPerQuarter), tracks: [track])
    }

    private func notes(at step: Int) -> [(UInt8, UInt8)] {
        var notes: [(UInt8, UInt8)] = melodyChannels.map { ($0, UInt8(Self.melody[step] + pitchShift)) }
        if let bassChannel, step % 2 == 0 { notes.append((bassChannel, UInt8((step % 4 == 0 ? 36 : 43) + pitchShift))) }
        if let drumChannel {
            notes.append((drumChannel, drumNotes.high))
            if step % 4 == 0 { notes.append((drumChannel, drumNotes.low)) }
            if step % 4 == 2 { notes.append((drumChannel, drumNotes.middle)) }
        }
        return notes
    }
}
