#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Expands files and folders into the MIDI files under them, in the browser's
/// order: each folder as ``FolderListing`` lists it, its folders expanded before
/// its files. A folder reached twice (through a symbolic-link loop) is read once.
public struct MIDIFileCollector {
    /// A path that could not be used, and why.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public private(set) var files: [String] = []
    public private(set) var problems: [Problem] = []
    private var visitedFolders: Set<FileIdentity> = []
    private var visitedPlaylists: Set<String> = []

    public init() {}

    /// Adds a path given by the user: a file is taken as it is (so a misnamed
    /// MIDI file still plays); a folder adds every MIDI file under it; an M3U
    /// playlist adds its entries.
    public mutating func add(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            problems.append(Problem(path: path, reason: String(cString: strerror(errno))))
            return
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            let (filesBefore, problemsBefore) = (files.count, problems.count)
            addFolder(path, identity: FileIdentity(info))
            if files.count == filesBefore, problems.count == problemsBefore {
                problems.append(Problem(path: path, reason: "no MIDI files in this folder"))
            }
        } else if M3UPlaylist.isPlaylist(path) {
            addPlaylist(path)
        } else {
            files.append(path)
        }
    }

    static let undecodableNameReason = "the name is not UTF-8 (Shift-JIS or Latin-1?), which smfplay cannot open: "
        + "rename it in UTF-8 (e.g. convmv -f shift-jis -t utf-8 --notest NAME)"

    private mutating func addPlaylist(_ path: String) {
        // A playlist that lists itself, directly or not, is read once.
        guard visitedPlaylists.insert(path).inserted else { return }
        do {
            for entry in try M3UPlaylist.entries(ofPlaylistAt: path) { add(path: entry) }
        } catch {
            problems.append(Problem(path: path, reason: "cannot read playlist: \(error.localizedDescription)"))
        }
    }

    private mutating func addFolder(_ folder: String, identity: FileIdentity) {
        guard visitedFolders.insert(identity).inserted else { return }
        let listing: FolderListing
        do {
            listing = try FolderListing(folder: folder)
        } catch {
            problems.append(Problem(path: folder, reason: "cannot open folder: \(error.reason)"))
            return
        }
        for path in listing.unopenable {
            problems.append(Problem(path: path, reason: Self.undecodableNameReason))
        }
        for entry in listing.entries where entry.kind == .folder {
            addFolder(entry.path, identity: entry.identity)
        }
        files += listing.entries.filter { $0.kind == .midiFile }.map(\.path)
    }
}
