/// Whether songs play at one loudness (`--loudness`, the configuration's `loudness`), and what a
/// `render --normalize` brings to it.
public enum LoudnessMode: String, CaseIterable, Hashable, Sendable {
    /// Each song brought to the loudness target.
    case track
    /// Each folder brought to the loudness target as one, its songs keeping their levels relative
    /// to one another (an album: ReplayGain's album gain).
    case folder
    /// Each song as its settings make it.
    case off
}
