/// A song's notes shared out among synthesizers that render it side by side, each on a core of its
/// own, their outputs summed: each key of each channel goes to one synthesizer, chosen so that each
/// has about as much to play (``NoteLoads``). A piano piece on one channel splits as well as an
/// orchestra.
///
/// The sum sounds as one synthesizer would. Each synthesizer gets every message that is not a
/// note's (controllers, programs, pitch bend, system exclusive), so each key is played in exactly
/// the state one synthesizer would have it in; keys that act on one another stay together
/// (``NoteLoads/wholeChannels``, exclusive classes). FluidSynth's reverb and chorus are linear
/// (delay lines and filters, whose sum of outputs is the output of the sum, started alike), and
/// the master volume scales every part alike. What differs: each part has the whole polyphony to
/// itself, so a song that makes one synthesizer steal voices steals fewer.
public struct NoteSplit: Hashable, Sendable {
    /// The part that plays each slot (channel × 128 + key).
    public let owners: [UInt8]
    public let partCount: Int

    /// Shares the groups of keys with any load among at most `count` parts (at most 255),
    /// heaviest first, each to the part with the least so far (within 4/3 of the best split).
    /// Keys without load go to the first part. Fewer parts come back when fewer groups have notes.
    public init(loads: NoteLoads, count: Int) {
        var groupLoads: [Int: Double] = [:]
        for slot in loads.loads.indices where loads.loads[slot] > 0 { groupLoads[loads.group(of: slot), default: 0] += loads.loads[slot] }
        let groups = groupLoads.keys.sorted { (groupLoads[$0]!, $1) > (groupLoads[$1]!, $0) }
        let count = max(1, min(count, 255, groups.count))
        var totals = [Double](repeating: 0, count: count)
        var partOfGroup: [Int: UInt8] = [:]
        for group in groups {
            let lightest = totals.indices.min { totals[$0] < totals[$1] } ?? 0
            partOfGroup[group] = UInt8(lightest)
            totals[lightest] += groupLoads[group]!
        }
        owners = loads.loads.indices.map { partOfGroup[loads.group(of: $0)] ?? 0 }
        partCount = count
    }
}
