/// What a song's summary and its standard's detection need from its channel messages: the
/// channels each track uses, its notes on each, when the first note starts, and the bank and
/// program selections with their places, on the song's time line. Each track counted these as it
/// was made (``TrackChannelUse``): no pass here over its notes, which are most of its events.
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
        noteCounts.reserveCapacity(tracks.count * 16)
        for (index, track) in tracks.enumerated() {
            let start = song.timeline.trackStartTicks[index]
            let use = track.channelUse
            channelMasks.append(use.channels)
            for channel in 0..<16 { noteCounts.append(Int(use.noteCounts[channel])) }
            if let first = use.firstNoteTick { firstNoteTick = min(firstNoteTick, start + UInt64(first)) }
            for position in use.settingIndices {
                let event = track.events[position]
                let place = SongSummary.EventPlace(tick: start + UInt64(event.tick), track: index, index: position)
                selections.append(Selection(place: place, event: event))
            }
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
