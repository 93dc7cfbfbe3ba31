import SMF

extension SMFEventStream {
    /// One pass over the stream, handing over each note as the piano roll pairs them (within a
    /// track, a note still sounding at its track's end lasting to it), as soon as it ends: for
    /// other drawings of a song than this module's images.
    public func visitNotes(_ body: (RollNote) -> Void) throws(SMFError) {
        try withoutActuallyEscaping(body) { (body) throws(SMFError) in
            var pass = NotePass(onNote: body)
            try visit(&pass)
        }
    }
}

private struct NotePass: SMFEventVisitor {
    let onNote: (RollNote) -> Void
    var pairing = NotePairing()

    mutating func visitChannelMessage(_ event: TrackEvent, atTick tick: UInt64) {
        if let note = pairing.note(endedBy: event, atTick: tick) { onNote(note) }
    }

    mutating func visitTempo(microsecondsPerQuarterNote: UInt32, atTick tick: UInt64) {}

    mutating func visitTrackEnd(atTick tick: UInt64) {
        for note in pairing.endAll(atTick: tick) { onNote(note) }
    }
}
