import Files
import SystemPackage

/// One line of the library browser: a folder, or a MIDI file.
public struct FolderEntry: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case folder
        case midiFile
    }

    /// The name as a person reads it (see `FilePath.Component.text`): what the browser shows and
    /// sorts by.
    public let name: String
    /// The listed folder's path joined with the name, as bytes.
    public let path: FilePath
    public let kind: Kind
    /// Reached through a symbolic link (to a folder or a file elsewhere).
    public let isSymbolicLink: Bool
    /// A symbolic link to the listed folder itself or to a folder that holds it:
    /// entering it only goes round in a circle, so the browser can say so.
    public let isLoop: Bool
    /// A folder's identity, which a walk through links visits once; nil for a file, and for a
    /// place inside an archive (where no link can loop).
    let identity: FileIdentity?
}

extension FolderEntry {
    /// A file found by a search of the whole library, named by its path under `root`.
    init(foundFile path: FilePath, root: FilePath) {
        var relative = path
        name = relative.removePrefix(root) ? relative.text : path.text
        self.path = path
        kind = .midiFile
        isSymbolicLink = false
        isLoop = false
        identity = nil
    }
}
