/// Why a song's own settings (its folder's) cannot be had: the message of the layer that read
/// them (a folder's `.smfplay.toml` that is wrong, named by file and line).
public struct SongSettingsProblem: Error, Sendable, CustomStringConvertible {
    public let error: any Error & Sendable & CustomStringConvertible

    public init(_ error: any Error & Sendable & CustomStringConvertible) {
        self.error = error
    }

    public var description: String { error.description }
}
