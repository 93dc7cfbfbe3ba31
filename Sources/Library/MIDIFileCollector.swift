import Files
import Foundation
import SMF
import Synchronization
import SystemPackage
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Expands files and folders into the MIDI files under them, in the browser's
/// order: each folder as ``FolderListing`` lists it, its folders expanded before
/// its files. A folder reached twice (through a symbolic-link loop) is read once.
public struct MIDIFileCollector {
    /// A path that could not be used, and why.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public enum Kind: Hashable, Sendable {
            /// A folder with no MIDI file under it: nothing wrong with it, nothing in it either.
            case noMIDIFiles
            /// The path cannot be read (it is not there, or may not be read).
            case unreadable
        }

        public let path: FilePath
        public let kind: Kind
        /// Why, in words.
        public let reason: String
        public var description: String { "\(path.text): \(reason)" }
    }

    public private(set) var files: [FilePath] = []
    public private(set) var problems: [Problem] = []
    /// Whether `isCancelled` stopped the listing of a folder: `files` is then not all there is.
    public private(set) var wasCancelled = false
    /// Folders listed ahead, each with its listing or why it has none.
    private typealias Listings = [FilePath: Result<FolderListing, FolderListingError>]
    private var visitedFolders: Set<FileIdentity> = []
    private var visitedPlaylists: Set<FilePath> = []
    /// Asked between folders: listing a large library on a slow disk takes a while.
    private let isCancelled: @Sendable () -> Bool
    /// Told, from the threads that list the folders under a folder given, how many MIDI files
    /// they have found so far: what a progress line shows while a large library is listed.
    private let found: @Sendable (Int) -> Void

    public init(isCancelled: @escaping @Sendable () -> Bool = { false }, found: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.isCancelled = isCancelled
        self.found = found
    }

    /// Adds a path given by the user: a file is taken as it is (so a misnamed
    /// MIDI file still plays); a folder adds every MIDI file under it; an M3U
    /// playlist adds its entries.
    public mutating func add(path: FilePath) {
        var info = stat()
        guard path.withPlatformString({ stat($0, &info) }) == 0 else {
            let reason = SystemError.current
            if let song = path.numberedSong, FolderListing.isFolderOfSongs(song.file) {
                // One song of an XMI file of several (`music.xmi/2`): read, and refused if it has
                // no such song, when it plays.
                files.append(path)
                return
            }
            guard let archived = ArchivedPath(path) else {
                problems.append(Problem(path: path, kind: .unreadable, reason: reason))
                return
            }
            addArchived(archived, path: path)
            return
        }
        if info.st_mode & S_IFMT == S_IFREG, FolderListing.isFolderOfSongs(path) {
            addFolder(path, identity: nil)
        } else if info.st_mode & S_IFMT == S_IFREG, let archived = ArchivedPath(path) {
            addArchived(archived, path: path)
        } else if info.st_mode & S_IFMT == S_IFDIR {
            let (filesBefore, problemsBefore) = (files.count, problems.count)
            addFolder(path, identity: FileIdentity(info))
            if files.count == filesBefore, problems.count == problemsBefore, !wasCancelled {
                problems.append(Problem(path: path, kind: .noMIDIFiles, reason: "no MIDI files in this folder"))
            }
        } else if M3UPlaylist.isPlaylist(path) {
            addPlaylist(path)
        } else {
            files.append(path)
        }
    }

    private mutating func addPlaylist(_ path: FilePath) {
        // A playlist that lists itself, directly or not, is read once.
        guard visitedPlaylists.insert(path).inserted else { return }
        do {
            for entry in try M3UPlaylist.entries(ofPlaylistAt: path) {
                switch entry {
                case .address(let address):
                    problems.append(Problem(path: path, kind: .unreadable, reason: "\(address): a web address, not a file; smfplay plays files"))
                case .file(let file):
                    // A missing entry is the playlist's to mend: it is named too.
                    let before = problems.count
                    add(path: file)
                    for index in before..<problems.count where problems[index].path == file && problems[index].kind == .unreadable {
                        problems[index] = Problem(path: file, kind: .unreadable, reason: problems[index].reason + " (listed in \(path.text))")
                    }
                }
            }
        } catch {
            problems.append(Problem(path: path, kind: .unreadable, reason: "cannot read playlist: \(error)"))
        }
    }

    /// Whether `path` is expanded into songs under it: a folder, an archive or a folder in one, or
    /// an XMI file of several songs.
    public static func holdsSongs(_ path: FilePath) -> Bool {
        path.isFolderOrArchive || FolderListing.isFolderOfSongs(path)
    }

    /// A path into an archive, or the archive itself: a member is taken as it is, a place that
    /// holds members as a folder.
    private mutating func addArchived(_ archived: ArchivedPath, path: FilePath) {
        let folder: ArchiveFolder
        do {
            folder = try archived.folder(memberLimit: SMFReadingPolicy().maximumFileSize)
        } catch {
            problems.append(Problem(path: archived.archive, kind: .unreadable, reason: "\(error)"))
            return
        }
        guard folder.exists else {
            // Not a place in the archive: a member (read, and refused if it is not there, when it
            // plays), or an XMI file of several songs in it.
            if FolderListing.isFolderOfSongs(path) { addFolder(path, identity: nil) } else { files.append(path) }
            return
        }
        let (filesBefore, problemsBefore) = (files.count, problems.count)
        addFolder(path, identity: nil)
        if files.count == filesBefore, problems.count == problemsBefore {
            problems.append(Problem(path: path, kind: .noMIDIFiles, reason: "no MIDI files in this archive"))
        }
    }

    private mutating func addFolder(_ folder: FilePath, identity: FileIdentity?) {
        var listed = identity == nil ? [:] : Self.listings(under: folder, identity: identity!, isCancelled: isCancelled, found: found)
        // What is listed so far is not the folder: taken as it is, it would be a library emptied.
        guard !isCancelled() else {
            wasCancelled = true
            return
        }
        addFolder(folder, identity: identity, listed: &listed)
    }

    private mutating func addFolder(_ folder: FilePath, identity: FileIdentity?, listed: inout Listings) {
        if let identity, !visitedFolders.insert(identity).inserted { return }
        let listing: FolderListing
        do {
            listing = try (listed.removeValue(forKey: folder) ?? Result { () throws(FolderListingError) in try FolderListing(folder: folder) }).get()
        } catch {
            problems.append(Problem(path: folder, kind: .unreadable, reason: "cannot open folder: \(error.reason)"))
            return
        }
        problems += listing.leftOut.map { Problem(path: folder, kind: .unreadable, reason: $0.description) }
        for entry in listing.entries where entry.kind == .folder {
            addFolder(entry.path, identity: entry.identity, listed: &listed)
        }
        files += listing.entries.filter { $0.kind == .midiFile }.map(\.path)
    }

    /// The listings of the folders under `root` (itself included), a level of folders at a time,
    /// each level's on all cores: a library of thousands of folders is found in about half the
    /// time. Only folders on disk (archives, and XMI files of several songs, are listed as they
    /// are reached), each once (by identity: a link back up is not followed again). Stops early,
    /// with what is listed so far, once `isCancelled` says so. Tells `found` the MIDI files listed
    /// so far after each folder.
    private static func listings(
        under root: FilePath, identity: FileIdentity, isCancelled: @escaping @Sendable () -> Bool, found: @escaping @Sendable (Int) -> Void
    ) -> Listings {
        var listed: Listings = [:]
        var seen: Set<FileIdentity> = [identity]
        var level = [root]
        let midiFiles = Atomic(0)
        while !level.isEmpty, !isCancelled() {
            let folders = level
            let results = WorkerThreads.results(ofJobs: folders.count) { (index) throws(FolderListingError) -> FolderListing? in
                guard !isCancelled() else { return nil }
                let listing = try FolderListing(folder: folders[index])
                found(midiFiles.wrappingAdd(listing.entries.count { $0.kind == .midiFile }, ordering: .relaxed).newValue)
                return listing
            }
            level = []
            for (folder, result) in zip(folders, results) {
                switch result {
                case .success(nil): continue // Not listed: cancelled.
                case .failure(let error): listed[folder] = .failure(error)
                case .success(let listing?):
                    listed[folder] = .success(listing)
                    for entry in listing.entries where entry.kind == .folder {
                        if let identity = entry.identity, seen.insert(identity).inserted { level.append(entry.path) }
                    }
                }
            }
        }
        return listed
    }
}
