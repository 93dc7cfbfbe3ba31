/// Whether songs play at one loudness (`--loudness`, the configuration's `loudness`).
public enum LoudnessMode: String, CaseIterable, Hashable, Sendable {
    /// Each song brought to the loudness target.
    case track
    /// Each song as its settings make it.
    case off
}
