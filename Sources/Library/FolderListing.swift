import Files
import SMF
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
    /// Listing an archive itself: what was left out of it as it was read (each said once, for
    /// the archive, not again for each folder in it).
    public let leftOut: [ArchiveWarning]

    public init(folder: FilePath) throws(FolderListingError) {
        guard let listed = folder.entries() else {
            let code = errno
            if code == ENOTDIR, let songs = Self.songEntries(of: folder) {
                self.folder = folder
                (entries, leftOut) = (songs, [])
                return
            }
            guard let archived = ArchivedPath(folder) else { throw FolderListingError(folder: folder, reason: .init(errno: code)) }
            self.folder = folder
            (entries, leftOut) = try Self.entries(of: archived, folder: folder)
            return
        }
        var folders: [FolderEntry] = []
        var files: [FolderEntry] = []
        var enclosingFolders: Set<FileIdentity>?
        for entry in listed where !Self.isHidden(entry.name) {
            let name = entry.name
            let path = folder.appending(name)
            // Most entries: a plain file, as the folder says, named as a MIDI file is (which no
            // archive or folder of songs is): listed without looking it up (a re-index of 100,000
            // files spent an eighth of its time on it).
            if entry.isPlainFile, Self.hasPlainMIDIExtension(name) {
                files.append(FolderEntry(name: name.text, path: path, kind: .midiFile, isSymbolicLink: false, isLoop: false, identity: nil))
                continue
            }
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
            case S_IFREG where Self.hasPlainMIDIExtension(name):
                // A MIDI file by its name, through a link (or where the folder does not say).
                files.append(FolderEntry(name: name.text, path: path, kind: .midiFile, isSymbolicLink: isLink, isLoop: false, identity: nil))
            case S_IFREG where ArchiveFormat(fileAt: path) != nil:
                // An archive is a folder, which no link can lead back into: no identity to visit once
                // (hard links to one archive are each a folder of their own, as their names say).
                folders.append(FolderEntry(name: name.text, path: path, kind: .folder, isSymbolicLink: isLink, isLoop: false, identity: nil))
            case S_IFREG where Self.isFolderOfSongs(path):
                folders.append(FolderEntry(name: name.text, path: path, kind: .folder, isSymbolicLink: isLink, isLoop: false, identity: nil))
            case S_IFREG where MIDIFileDetector.isMIDIFile(at: path):
                files.append(FolderEntry(name: name.text, path: path, kind: .midiFile, isSymbolicLink: isLink, isLoop: false, identity: nil))
            default:
                break
            }
        }
        self.folder = folder
        entries = NaturalOrder.sorted(folders, byName: \.name) + NaturalOrder.sorted(files, byName: \.name)
        leftOut = []
    }

    /// A place in an archive, or the archive itself: its folders (archives inside it among them)
    /// and its MIDI files, by extension or content. What the archive left out is not said here:
    /// the commands that read its songs say it.
    private static func entries(of archived: ArchivedPath, folder: FilePath) throws(FolderListingError) -> ([FolderEntry], [ArchiveWarning]) {
        let place: ArchiveFolder
        do {
            place = try archived.folder(memberLimit: SMFReadingPolicy().maximumFileSize)
        } catch {
            throw FolderListingError(folder: folder, reason: .other("\(error)"))
        }
        guard place.exists else { throw FolderListingError(folder: folder, reason: .missing) }
        func path(_ name: [UInt8]) -> FilePath { FilePath(bytes: folder.bytes + [UInt8(ascii: "/")] + name) }
        let folders = place.folders.filter { $0.first != UInt8(ascii: ".") }.map { name in
            FolderEntry(name: FilePath.text(ofName: name[...]), path: path(name), kind: .folder, isSymbolicLink: false, isLoop: false, identity: nil)
        }
        let songFolders = place.files.filter { isFolderOfSongs(path($0.name)) }.map { file in
            FolderEntry(
                name: FilePath.text(ofName: file.name[...]), path: path(file.name), kind: .folder, isSymbolicLink: false, isLoop: false, identity: nil
            )
        }
        let files = place.files.filter { file in
            guard !isFolderOfSongs(path(file.name)) else { return false }
            guard file.name.first != UInt8(ascii: "."), let data = place.data(of: file.member) else { return false }
            return MIDIFileDetector.hasMIDIExtension(file.member.name) || MIDIFileSignature.matches(data.prefix(MIDIFileSignature.length))
        }.map { file in
            FolderEntry(
                name: FilePath.text(ofName: file.name[...]), path: path(file.name), kind: .midiFile, isSymbolicLink: false, isLoop: false,
                identity: nil)
        }
        return (
            NaturalOrder.sorted(folders + songFolders, byName: \.name) + NaturalOrder.sorted(files, byName: \.name),
            archived.isArchive ? place.warnings : []
        )
    }

    /// Whether the file at `path` (on disk or in an archive) is an XMI file of several songs: a
    /// folder of them, each named by its number (`music.xmi/2`, see ``SMFReader/read(path:)``).
    static func isFolderOfSongs(_ path: FilePath) -> Bool {
        path.extension?.lowercased() == "xmi" && SMFReader().songCount(ofFileAt: path) > 1
    }

    /// The songs of an XMI file of several, as files named 1, 2…; nil for any other file.
    private static func songEntries(of file: FilePath) -> [FolderEntry]? {
        guard isFolderOfSongs(file) else { return nil }
        return (1...SMFReader().songCount(ofFileAt: file)).map { number in
            FolderEntry(name: "\(number)", path: file.appending("\(number)"), kind: .midiFile, isSymbolicLink: false, isLoop: false, identity: nil)
        }
    }

    /// Whether the name ends in a MIDI file's extension other than `.xmi` (which may be a folder
    /// of songs): looked at on the name alone, before the path's other questions.
    private static func hasPlainMIDIExtension(_ name: FilePath.Component) -> Bool {
        guard let fileExtension = name.extension?.lowercased() else { return false }
        return fileExtension != "xmi" && MIDIFileDetector.extensions.contains(fileExtension)
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
