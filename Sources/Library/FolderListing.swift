#if canImport(Glibc)
import Glibc
#endif

/// One folder's entries as the library browser shows them: its folders, then its
/// MIDI files (by extension or by content, see ``MIDIFileDetector``), each group in
/// ``NaturalOrder``. Hidden entries, other files, and links that lead nowhere are
/// left out; links to folders are shown, with ``FolderEntry/isLoop`` set on those
/// that lead back to where they are.
public struct FolderListing: Sendable {
    public let folder: String
    public let entries: [FolderEntry]

    public init(folder: String) throws(FolderListingError) {
        guard let names = Self.names(in: folder) else { throw FolderListingError(folder: folder, reason: .init(errno: errno)) }
        var folders: [FolderEntry] = []
        var files: [FolderEntry] = []
        var enclosingFolders: Set<FileIdentity>?
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let isLink = info.st_mode & S_IFMT == S_IFLNK
            guard !isLink || stat(path, &info) == 0 else { continue }
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
                folders.append(FolderEntry(name: name, path: path, kind: .folder, isSymbolicLink: isLink, isLoop: isLoop, identity: identity))
            case S_IFREG where MIDIFileDetector.isMIDIFile(atPath: path):
                files.append(FolderEntry(name: name, path: path, kind: .midiFile, isSymbolicLink: isLink, isLoop: false, identity: identity))
            default:
                break
            }
        }
        self.folder = folder
        entries = NaturalOrder.sorted(folders, byName: \.name) + NaturalOrder.sorted(files, byName: \.name)
    }

    /// The names in a folder but `.` and `..`, or `nil` with `errno` set when it cannot be read.
    static func names(in folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The folder and every folder its path goes through, as far as `/`.
    private static func identities(enclosing folder: String) -> Set<FileIdentity> {
        var identities: Set<FileIdentity> = []
        var parts = folder.split(separator: "/", omittingEmptySubsequences: true)
        while true {
            let prefix = (folder.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
            if let identity = FileIdentity(path: prefix.isEmpty ? "." : prefix) { identities.insert(identity) }
            guard !parts.isEmpty else { return identities }
            parts.removeLast()
        }
    }
}
