/// A song's channels shared out among synthesizers that render it side by side, each on a core of
/// its own, their outputs summed: the split that evens out the work (``Sequencer/channelLoads()``).
///
/// The sum sounds as one synthesizer would: each synthesizer gets every message that is not a
/// channel's (system exclusive, resets, tempo), and all of a channel's messages, so each channel
/// is played by one synthesizer in exactly the state one synthesizer would have it in; FluidSynth's
/// reverb and chorus are linear (delay lines and filters, whose sum of outputs is the output of
/// the sum, started alike); the master volume scales every part alike. What differs: each part has
/// the whole polyphony to itself, so a song that makes one synthesizer steal voices steals fewer.
public struct ChannelSplit: Hashable, Sendable {
    /// Each part's channels, bit c for channel c (0–63); every channel is in exactly one part.
    public let parts: [UInt64]

    /// Shares the channels with any load among at most `count` parts, heaviest first, each to the
    /// part with the least so far (within 4/3 of the best split). Channels without load go to the
    /// first part. Fewer parts come back when fewer channels have notes.
    public init(loads: [Double], count: Int) {
        let loaded = loads.indices.filter { loads[$0] > 0 }.sorted { loads[$0] > loads[$1] }
        let count = max(1, min(count, loaded.count))
        var masks = [UInt64](repeating: 0, count: count)
        var totals = [Double](repeating: 0, count: count)
        for channel in loaded {
            let lightest = totals.indices.min { totals[$0] < totals[$1] } ?? 0
            masks[lightest] |= 1 << UInt64(channel)
            totals[lightest] += loads[channel]
        }
        masks[0] |= ~masks.reduce(0, |)
        parts = masks
    }
}
