import Synthesis

/// What the synthesizers do (the keys they press, the channels' instruments and strikes), shown as
/// it is heard. Each look is kept with the song frame rendered by then, and shown once that frame
/// is heard: the output's latency later (55 ms by default, far more through Bluetooth), so that a
/// key lights and a channel's meter jumps with the sound, not before it. Looks that come to be
/// heard together are shown merged (`merge`): a note struck and released between two looks
/// still shows once, as ``PressedKeys`` and ``ChannelActivity`` keep it.
struct HeardLooks<Look> {
    /// The looks not shown yet, a frame apart at least: one per frame rendered since the last
    /// shown, so they stay few even while the song stands still (stopped, ended, run dry).
    private(set) var looks: [(generation: Int, frame: Int64, look: Look)] = []
    private var shown: Look
    /// Folds a later look into an earlier one.
    private let merge: (inout Look, Look) -> Void
    /// What the look shown last shows again when nothing more has been heard since: the state
    /// it found, without the strikes it reported (already shown once).
    private let repeated: (Look) -> Look

    /// Shows `nothing` until a look is heard.
    init(showing nothing: Look, merge: @escaping (inout Look, Look) -> Void, repeated: @escaping (Look) -> Look = { $0 }) {
        shown = nothing
        self.merge = merge
        self.repeated = repeated
    }

    /// Takes `look`, taken with the song of `generation` rendered to `frame`; returns what is
    /// heard at `heardFrame`.
    mutating func look(_ look: Look, generation: Int, frame: Int64, heardFrame: Int64) -> Look {
        // Another song, or a seek back: the looks kept are of a place that will not be heard.
        if let last = looks.last, last.generation != generation || last.frame > frame { looks.removeAll() }
        if let last = looks.last, last.frame == frame {
            // Nothing rendered since: the same place, looked at again.
            merge(&looks[looks.count - 1].look, look)
        } else {
            looks.append((generation, frame, look))
        }
        let heard = looks.prefix { $0.frame <= heardFrame }.count
        guard heard > 0 else {
            shown = repeated(shown)
            return shown
        }
        var merged = looks[0].look
        for later in looks[1..<heard] { merge(&merged, later.look) }
        looks.removeFirst(heard)
        shown = merged
        return shown
    }
}

extension HeardLooks where Look == [UInt64] {
    /// The keys pressed (``PlayerSnapshot/pressedKeys``): a key shows held when any look heard held
    /// it. Shown again, a key only struck between two looks shows once more (one look, 40 ms): a
    /// look does not tell held keys from struck ones.
    static func keys() -> Self {
        Self(showing: [UInt64](repeating: 0, count: PressedKeys.keyCount)) { earlier, later in
            for key in earlier.indices where key < later.count { earlier[key] |= later[key] }
        }
    }
}

extension HeardLooks where Look == [ChannelSnapshot] {
    /// The channels (``PlayerSnapshot/channels``): each with its latest instrument, and the
    /// hardest strike of the looks heard; shown again, no strike (the meter falls).
    static func channels() -> Self {
        Self(
            showing: [],
            merge: { earlier, later in
                guard earlier.count == later.count else {
                    earlier = later
                    return
                }
                for channel in earlier.indices {
                    let velocity = max(earlier[channel].velocity, later[channel].velocity)
                    earlier[channel] = later[channel]
                    earlier[channel].velocity = velocity
                }
            },
            repeated: { channels in
                channels.map { channel in
                    var quiet = channel
                    quiet.velocity = 0
                    return quiet
                }
            })
    }
}
