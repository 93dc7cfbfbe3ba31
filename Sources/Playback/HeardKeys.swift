import Synthesis

/// The keys the synthesizers press, shown as they are heard. Each look at them is kept with the
/// song frame rendered by then, and shown once that frame is heard: the output's latency later
/// (50 ms by default, far more through Bluetooth), so that a key lights with its sound, not
/// before it. Looks that come to be heard together are shown merged: a note struck and released
/// between two looks still shows once, as ``PressedKeys`` promises.
struct HeardKeys {
    /// The looks not shown yet, a frame apart at least: one per frame rendered since the last
    /// shown, so they stay few even while the song stands still (stopped, ended, run dry).
    private(set) var looks: [(generation: Int, frame: Int64, keys: [UInt64])] = []
    private var shown = [UInt64](repeating: 0, count: PressedKeys.keyCount)

    /// Takes `keys`, pressed with the song of `generation` rendered to `frame`; returns the keys
    /// that sound at `heardFrame`.
    mutating func look(_ keys: [UInt64], generation: Int, frame: Int64, heardFrame: Int64) -> [UInt64] {
        // Another song, or a seek back: the looks kept are of a place that will not be heard.
        if let last = looks.last, last.generation != generation || last.frame > frame { looks.removeAll() }
        if let last = looks.last, last.frame == frame {
            // Nothing rendered since: the same place, looked at again.
            for key in keys.indices where key < last.keys.count { looks[looks.count - 1].keys[key] |= keys[key] }
        } else {
            looks.append((generation, frame, keys))
        }
        let heard = looks.prefix { $0.frame <= heardFrame }.count
        guard heard > 0 else { return shown }
        var merged = looks[0].keys
        for look in looks[1..<heard] {
            for key in merged.indices where key < look.keys.count { merged[key] |= look.keys[key] }
        }
        looks.removeFirst(heard)
        shown = merged
        return shown
    }
}
