#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Expands files and folders into the MIDI files under them, in the browser's
/// order: at each level folders first, then files, each in ``NaturalOrder``.
/// Hidden entries are left out; a symbolic-link loop is followed once.
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
            let before = files.count
            addFolder(path, identity: FileIdentity(info))
            if files.count == before, !problems.contains(where: { $0.path == path }) {
                problems.append(Problem(path: path, reason: "no MIDI files in this folder"))
            }
        } else if M3UPlaylist.isPlaylist(path) {
            addPlaylist(path)
        } else {
            files.append(path)
        }
    }

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
        guard let names = Self.entries(of: folder) else {
            problems.append(Problem(path: folder, reason: "cannot open folder: \(String(cString: strerror(errno)))"))
            return
        }
        var folders: [(String, FileIdentity)] = []
        var midiFiles: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: folders.append((path, FileIdentity(info)))
            case S_IFREG where MIDIFileDetector.isMIDIFile(atPath: path): midiFiles.append(path)
            default: break
            }
        }
        for (path, identity) in folders.sorted(by: { NaturalOrder.precedes(name(of: $0.0), name(of: $1.0)) }) {
            addFolder(path, identity: identity)
        }
        files += midiFiles.sorted { NaturalOrder.precedes(name(of: $0), name(of: $1)) }
    }

    /// The names in a folder, or `nil` with `errno` set when it cannot be read.
    private static func entries(of folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    private func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// A file's device and inode: the same folder reached by two paths has one identity.
private struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
