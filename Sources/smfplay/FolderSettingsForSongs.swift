import Configuration
import Playback
import Synthesis
import SystemPackage

/// Each song's settings from the `.smfplay.toml` files above it (up to the configuration's
/// library), laid over the command's with the command line's keys kept: what `render` and
/// `play` ask for each song. One for a run: each folder's file is read once.
struct FolderSettingsForSongs: Sendable {
    private let folders: FolderSettingsLookup
    private let command: SongSettings
    private let commandLine: Set<FolderSettings.Key>

    init(command: SongSettings, commandLine: Set<FolderSettings.Key>, configuration: Configuration) {
        let directories = XDGDirectories.current()
        folders = FolderSettingsLookup(libraryRoot: configuration.libraryRoot(in: directories), locator: .standard(directories: directories))
        self.command = command
        self.commandLine = commandLine
    }

    /// The song's settings; nil when they are the command's. `refusingEndlessLoops`: a folder's
    /// `loops = "inf"` is a problem (a render would never end).
    func settings(forSongAt path: FilePath, refusingEndlessLoops: Bool) throws(SongSettingsProblem) -> SongSettings? {
        let song: SongSettings
        do {
            let folder = try folders.settings(forSongAt: path)
            song = try folder.applied(to: command, commandLine: commandLine)
            if refusingEndlessLoops, song.loops.passes == nil { throw SongSettingsProblem(FolderRenderError.endlessLoops(file: folder.loops?.file)) }
        } catch let error as FolderSettingsError {
            throw SongSettingsProblem(error)
        } catch let problem as SongSettingsProblem {
            throw problem
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return song == command ? nil : song
    }
}
