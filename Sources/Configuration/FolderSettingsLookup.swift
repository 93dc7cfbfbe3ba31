import Files
import Synchronization
import Synthesis
import SystemPackage

/// Finds a song's folder settings: the `.smfplay.toml` in its folder and in each folder above it,
/// up to the library root when the song is inside the library (a file above the library is
/// another collection's, or the user's home's, and is not read), or up to `/` when the song is
/// outside it (its folders are then the only place settings for it can be). Each folder's file
/// is read once for the run, whatever the number of songs under it or the threads asking.
///
/// Paths are worked out on their bytes, lexically: `..` goes back a name, as the shell's `cd`
/// does, so `Bach/../Chopin/a.mid` has Chopin's settings and not Bach's. (Not through
/// `FilePath.components`, which is not safe off the main thread: see
/// ``FilePath/relativeBytes(under:)``; render's workers ask from theirs.)
public final class FolderSettingsLookup: Sendable {
    /// Reads a folder file's text; nil when there is none. Tests count reads through their own.
    public typealias Reader = @Sendable (FilePath) throws(ConfigurationError) -> String?

    /// The library folder, absolute and lexically normal.
    public let libraryRoot: FilePath
    private let locator: SoundFontLocator
    private let read: Reader
    /// Each folder's own file, as read (or why it cannot be used), by folder.
    private let files = Mutex<[FilePath: Result<FolderSettings, FolderSettingsError>]>([:])

    public init(libraryRoot: FilePath, locator: SoundFontLocator, read: @escaping Reader = FolderSettingsLookup.readFile) {
        self.libraryRoot = Self.path(of: Self.names(of: libraryRoot))
        self.locator = locator
        self.read = read
    }

    /// The file's text as the configuration file's is read (UTF-8, at most 1 MB); nil when missing.
    public static func readFile(_ path: FilePath) throws(ConfigurationError) -> String? {
        try ConfigurationFile(path: path, isRequired: false).text()
    }

    /// The settings for the song at `path` (absolute, or from the working folder), the nearest
    /// file winning key by key. A file that cannot be used is thrown, the nearest first.
    public func settings(forSongAt path: FilePath) throws(FolderSettingsError) -> FolderSettings {
        var merged = FolderSettings()
        for folder in folders(forSongAt: path) {
            merged = merged.over(try settings(ofFolder: folder).get())
        }
        return merged
    }

    /// `settings(forSongAt:)` applied to `command` (see ``FolderSettings/applied(to:commandLine:)``).
    public func songSettings(forSongAt path: FilePath, command: SongSettings, commandLine: Set<FolderSettings.Key>) throws(FolderSettingsError)
        -> SongSettings
    {
        try settings(forSongAt: path).applied(to: command, commandLine: commandLine)
    }

    /// The folders whose files apply to the song at `path`, nearest first.
    public func folders(forSongAt path: FilePath) -> [FilePath] {
        let song = Self.names(of: path)
        let root = Self.names(of: libraryRoot)
        let folder = song.dropLast()
        // Inside the library (the root itself included), its root is the last folder read.
        let top = folder.starts(with: root) ? root.count : 0
        return (top...folder.count).reversed().map { Self.path(of: folder.prefix($0)) }
    }

    /// A folder file as `info` names it: from the library root when it is inside, else whole.
    public func displayName(of file: FilePath) -> String {
        file.relativeBytes(under: libraryRoot).map { FilePath(bytes: $0).text } ?? file.text
    }

    /// One folder's own file, read the first time it is asked for. Read under the lock, so that
    /// workers asking at once for songs of one folder read it once; the files are small.
    private func settings(ofFolder folder: FilePath) -> Result<FolderSettings, FolderSettingsError> {
        files.withLock { files in
            if let known = files[folder] { return known }
            let file = Self.path(of: Self.names(of: folder) + [Array(FolderSettings.fileName.utf8)])
            let settings = Result { () throws(FolderSettingsError) -> FolderSettings in
                do throws(ConfigurationError) {
                    guard let text = try read(file) else { return FolderSettings() }
                    return try FolderSettings(parsing: text, path: file, locator: locator)
                } catch {
                    throw .file(error)
                }
            }
            files[folder] = settings
            return settings
        }
    }

    /// The names of `path` from `/`, `.` and empty names dropped and `..` taking back the name
    /// before it.
    static func names(of path: FilePath) -> [[UInt8]] {
        let slash = UInt8(ascii: "/")
        var bytes = path.bytes
        if bytes.first != slash { bytes = FilePath.currentDirectory.bytes + [slash] + bytes }
        var names: [[UInt8]] = []
        for name in bytes.split(separator: slash) {
            if name.elementsEqual([UInt8(ascii: ".")]) { continue }
            if name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                _ = names.popLast()
            } else {
                names.append(Array(name))
            }
        }
        return names
    }

    private static func path(of names: some Collection<[UInt8]>) -> FilePath {
        FilePath(bytes: names.flatMap { [UInt8(ascii: "/")] + $0 }.ifEmpty([UInt8(ascii: "/")]))
    }
}

extension Array {
    fileprivate func ifEmpty(_ replacement: Self) -> Self { isEmpty ? replacement : self }
}
