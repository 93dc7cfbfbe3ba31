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

    /// What the settings are for.
    enum Use {
        /// A render: a folder's `loops = "inf"` is a problem (it would never end).
        case render
        /// Play: the listener's transposition is one for the queue, so a song's own goes to its
        /// synthesizer, on top (``SynthesizerSettings/keyShift``).
        case play
    }

    /// The settings as a batch render asks for them, for each song as it renders it.
    var forRendering: BatchRenderer.SongSettingsSource {
        { path throws(RenderError) in
            do throws(SongSettingsProblem) {
                return try settings(forSongAt: path, for: .render)
            } catch {
                throw .songSettings(song: path, error)
            }
        }
    }

    /// The song's settings; nil when they are the command's.
    func settings(forSongAt path: FilePath, for use: Use) throws(SongSettingsProblem) -> SongSettings? {
        var song: SongSettings
        do {
            let folder = try folders.settings(forSongAt: path)
            song = try folder.applied(to: command, commandLine: commandLine)
            switch use {
            case .render:
                if song.loops.passes == nil { throw SongSettingsProblem(FolderRenderError.endlessLoops(file: folder.loops?.file)) }
            case .play:
                song.synthesizer.keyShift = song.performance.transpose - command.performance.transpose
                song.performance.transpose = command.performance.transpose
            }
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
