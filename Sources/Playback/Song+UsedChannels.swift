import SMF

extension Song {
    /// The channels (bit c for channel c, 0–15, on any port) that any channel message is sent on:
    /// the channel panel names the instruments of these alone. One pass over every event, when a
    /// song is loaded.
    var usedChannels: UInt16 {
        var used: UInt16 = 0
        for track in file.tracks {
            for event in track.events where event.isChannelMessage { used |= 1 << UInt16(event.channel & 15) }
        }
        return used
    }
}
