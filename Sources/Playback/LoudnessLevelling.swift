import Loudness

/// What a playing song's loudness gain was set from.
enum LoudnessLevelling: Hashable {
    /// Its own loudness: `--loudness track`, or a song of a folder not measured whole yet.
    case song
    /// Its folder's loudness (at a synthesizer gain of 1), with `--loudness folder`.
    case folder(Loudness)

    var isFolder: Bool {
        if case .folder = self { true } else { false }
    }
}
