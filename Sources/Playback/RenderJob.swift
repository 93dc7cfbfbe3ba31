import Loudness
import SystemPackage

/// One song to render, and where its audio goes.
public struct RenderJob: Hashable, Sendable {
    public var input: FilePath
    public var output: FilePath
    /// With `--normalize --loudness folder`: the loudness of the song's folder (its songs together,
    /// at a synthesizer gain of 1), which sets its normalizing gain in place of its own. Nil: its own.
    public var folderLoudness: Loudness?

    public init(input: FilePath, output: FilePath, folderLoudness: Loudness? = nil) {
        self.input = input
        self.output = output
        self.folderLoudness = folderLoudness
    }
}
