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
    /// Folders and MIDI files (by extension) whose names are not UTF-8, as in collections from
    /// older systems (Shift-JIS, Latin-1): the paths, shown with U+FFFD where a byte is not
    /// UTF-8. They cannot be opened, as no String path leads back to them; the user is told.
    public let unopenable: [String]

    public init(folder: String) throws(FolderListingError) {
        guard let (names, undecodable) = Self.names(in: folder) else { throw FolderListingError(folder: folder, reason: .init(errno: errno)) }
        unopenable = undecodable.filter { $0.isFolder || MIDIFileDetector.hasMIDIExtension($0.shown) }
            .map { folder.hasSuffix("/") ? folder + $0.shown : folder + "/" + $0.shown }
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

    /// A name that is not UTF-8: shown with U+FFFD for each byte that is not, and whether it
    /// is a folder (told from the name's own bytes).
    struct UndecodableName {
        let shown: String
        let isFolder: Bool
    }

    /// The names in a folder but `.` and `..`, and apart from them those that are not UTF-8;
    /// `nil` with `errno` set when the folder cannot be read.
    static func names(in folder: String) -> (names: [String], undecodable: [UndecodableName])? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        var undecodable: [UndecodableName] = []
        while let entry = readdir(directory) {
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.prefix { $0 != 0 }
                if let name = String(validating: bytes, as: UTF8.self) {
                    if name != ".", name != ".." { names.append(name) }
                } else if !bytes.starts(with: [UInt8(ascii: ".")]) {
                    undecodable.append(UndecodableName(shown: String(decoding: bytes, as: UTF8.self),
                                                       isFolder: Self.isFolder(folder: folder, rawName: bytes)))
                }
            }
        }
        return (names, undecodable)
    }

    private static func isFolder(folder: String, rawName: Slice<UnsafeRawBufferPointer>) -> Bool {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + rawName + [0]
        var info = stat()
        return path.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) == 0 }
        } && info.st_mode & S_IFMT == S_IFDIR
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
