import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// One folder's entries as the library browser shows them: its folders, then its
/// MIDI files (by extension or by content, see ``MIDIFileDetector``), each group in
/// ``NaturalOrder``. Hidden entries, other files, and links that lead nowhere are
/// left out; links to folders are shown, with ``FolderEntry/isLoop`` set on those
/// that lead back to where they are. Names are kept as the bytes they are, UTF-8 or
/// not (Shift-JIS names from old Japanese archives open like any other).
public struct FolderListing: Sendable {
    public let folder: FilePath
    public let entries: [FolderEntry]

    public init(folder: FilePath) throws(FolderListingError) {
        guard let names = folder.entryNames() else { throw FolderListingError(folder: folder, reason: .init(errno: errno)) }
        var folders: [FolderEntry] = []
        var files: [FolderEntry] = []
        var enclosingFolders: Set<FileIdentity>?
        for name in names where !Self.isHidden(name) {
            let path = folder.appending(name)
            var info = stat()
            guard path.withPlatformString({ lstat($0, &info) }) == 0 else { continue }
            let isLink = info.st_mode & S_IFMT == S_IFLNK
            guard !isLink || path.withPlatformString({ stat($0, &info) }) == 0 else { continue }
            let identity = FileIdentity(info)
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                var isLoop = false
                if isLink {
                    // Worked out once, and only for a folder that has a link in it.
                    let enclosing = enclosingFolders ?? Self.identities(enclosing: folder)
                    enclosingFolders = enclosing
                    isLoop = enclosing.contains(identity)
                }
                folders.append(FolderEntry(name: name.text, path: path, kind: .folder, isSymbolicLink: isLink, isLoop: isLoop, identity: identity))
            case S_IFREG where MIDIFileDetector.isMIDIFile(at: path):
                files.append(FolderEntry(name: name.text, path: path, kind: .midiFile, isSymbolicLink: isLink, isLoop: false, identity: identity))
            default:
                break
            }
        }
        self.folder = folder
        entries = NaturalOrder.sorted(folders, byName: \.name) + NaturalOrder.sorted(files, byName: \.name)
    }

    private static func isHidden(_ name: FilePath.Component) -> Bool {
        name.withPlatformString { $0.pointee == CChar(UInt8(ascii: ".")) }
    }

    /// The folder and every folder its path goes through, as far as `/`.
    private static func identities(enclosing folder: FilePath) -> Set<FileIdentity> {
        var identities: Set<FileIdentity> = []
        var path = folder
        while true {
            if let identity = FileIdentity(path: path.isEmpty ? "." : path) { identities.insert(identity) }
            guard !path.components.isEmpty else { return identities }
            path.removeLastComponent()
        }
    }
}
