/// What a song's summary and its standard's detection need from its channel messages, from one
/// pass over every track's events: the channels each track uses, its notes on each, when the
/// first note starts, and the bank and program selections with their places.
///
/// Notes are most of a song's events, and these are the only passes that look at them: each
/// took a pass of its own (the index reads thousands of songs a second).
struct ChannelMessageScan {
    /// A bank select (controller 0 or 32) or program change: where it is, and the event.
    struct Selection {
        var place: SongSummary.EventPlace
        var event: TrackEvent
    }

    /// Per track: the channels (bit n: channel n, 0–15) its channel messages use.
    private(set) var channelMasks: [UInt16] = []
    /// Per track, 16 a track: how many notes it starts on each channel.
    private var noteCounts: [Int] = []
    /// The time line tick of the first note; `UInt64.max` for a song without notes.
    private(set) var firstNoteTick = UInt64.max
    /// The selections track by track, each track's in file order (not yet in the song's order).
    private(set) var selections: [Selection] = []

    init(song: Song) {
        let tracks = song.file.tracks
        channelMasks.reserveCapacity(tracks.count)
        noteCounts = [Int](repeating: 0, count: tracks.count * 16)
        for (index, track) in tracks.enumerated() {
            let start = song.timeline.trackStartTicks[index]
            var mask: UInt16 = 0
            var trackFirstNote: UInt32?
            // Counted in place, without the checks of an array's element on each note.
            noteCounts.withUnsafeMutableBufferPointer { counts in
                let notes = UnsafeMutableBufferPointer(rebasing: counts[index * 16..<index * 16 + 16])
                track.events.withUnsafeBufferPointer { events in
                    for position in events.indices where events[position].isChannelMessage {
                        let event = events[position]
                        let channel = Int(event.channel)
                        mask |= 1 << UInt16(channel)
                        // Counted without a branch: note-ons and note-offs alternate, which a
                        // branch on each would guess wrong half the time.
                        let startsNote = event.startsNote
                        notes[channel] &+= startsNote ? 1 : 0
                        if trackFirstNote == nil, startsNote { trackFirstNote = event.tick }
                        if ChannelState.isSetting(event) {
                            selections.append(
                                Selection(
                                    place: SongSummary.EventPlace(tick: start + UInt64(event.tick), track: index, index: position), event: event))
                        }
                    }
                }
            }
            channelMasks.append(mask)
            if let trackFirstNote { firstNoteTick = min(firstNoteTick, start + UInt64(trackFirstNote)) }
        }
    }

    /// The notes track `track` starts on `channel` (0–15).
    func noteCount(track: Int, channel: Int) -> Int {
        noteCounts[track * 16 + channel]
    }

    /// The notes track `track` starts, on all its channels.
    func noteCount(track: Int) -> Int {
        noteCounts[track * 16..<(track + 1) * 16].reduce(0, +)
    }

    /// The notes every track starts on `channel` (0–15).
    func noteCount(channel: Int) -> Int {
        stride(from: channel, to: noteCounts.count, by: 16).reduce(0) { $0 + noteCounts[$1] }
    }
}
