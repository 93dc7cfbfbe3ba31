import Loudness

/// How a render sets its level.
public enum Normalization: Hashable, Sendable {
    /// As the settings make it.
    case off
    /// The whole render scaled so that its highest sample is at −1 dBFS (`--normalize-peak`).
    case peak
    /// Each song brought to a loudness (`--normalize`), its peaks between samples too kept at or
    /// below −1 dBTP.
    case loudness(LoudnessTarget)
}
