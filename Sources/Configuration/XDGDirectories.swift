import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The user's base folders, as the XDG Base Directory Specification defines them:
/// each variable when it holds an absolute path, otherwise the folder under home.
/// A relative path in one of the variables is ignored, as the specification asks.
///
/// The environment is a parameter so that tests (and anything else) can pass their own.
public struct XDGDirectories: Sendable, Equatable {
    /// The folder smfplay's own files go in under each base folder.
    public static let applicationName = "smfplay"

    public var home: FilePath
    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public var configHome: FilePath
    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    public var dataHome: FilePath
    /// `$XDG_STATE_HOME`, or `~/.local/state`.
    public var stateHome: FilePath
    /// `$XDG_CACHE_HOME`, or `~/.cache`.
    public var cacheHome: FilePath
    /// The user's music folder: `$XDG_MUSIC_DIR`, or `XDG_MUSIC_DIR` in
    /// `$XDG_CONFIG_HOME/user-dirs.dirs`, or `~/Music`. One set to the home folder
    /// itself counts as not set, since that is how xdg-user-dirs turns a folder off.
    public var music: FilePath

    /// smfplay's own folders under the base ones, where the resume state and the
    /// caches go: `$XDG_STATE_HOME/smfplay` and `$XDG_CACHE_HOME/smfplay`.
    public var stateFolder: FilePath { stateHome.appending(Self.applicationName) }
    public var cacheFolder: FilePath { cacheHome.appending(Self.applicationName) }
    public var dataFolder: FilePath { dataHome.appending(Self.applicationName) }

    /// `home` is `$HOME` when it is absolute, otherwise the user's home folder in the
    /// password database (services and `sudo -H`-less scripts can run without HOME),
    /// otherwise `/`.
    public init(environment: [String: String]) {
        func absolute(_ name: String) -> FilePath? {
            guard let value = environment[name], value.hasPrefix("/") else { return nil }
            return FilePath(value)
        }
        let home = absolute("HOME") ?? Self.passwordDatabaseHome() ?? "/"
        self.home = home
        configHome = absolute("XDG_CONFIG_HOME") ?? home.appending(".config")
        dataHome = absolute("XDG_DATA_HOME") ?? home.appending(".local/share")
        stateHome = absolute("XDG_STATE_HOME") ?? home.appending(".local/state")
        cacheHome = absolute("XDG_CACHE_HOME") ?? home.appending(".cache")
        let homeFolder = home.absolute(in: "/")
        let musicFolders = [absolute("XDG_MUSIC_DIR"), UserDirectories(home: home, configHome: configHome).folder(named: "MUSIC")]
        music = musicFolders.compactMap { $0 }.first { $0.absolute(in: "/") != homeFolder } ?? home.appending("Music")
    }

    /// A path as people write it: `~` and `~/…` are under the home folder.
    public func expandingTilde(in path: String) -> FilePath {
        Self.expandingTilde(in: path, home: home)
    }

    /// `path` with `~` standing for `home`; nil leaves `~` alone.
    static func expandingTilde(in path: String, home: FilePath?) -> FilePath {
        guard let home, path == "~" || path.hasPrefix("~/") else { return FilePath(path) }
        return home.pushing(FilePath(String(path.dropFirst(min(2, path.count)))))
    }

    /// The folders for this process's environment.
    public static func current() -> XDGDirectories {
        XDGDirectories(environment: processEnvironment())
    }

    /// The process's environment variables; the first of a repeated name wins, as in getenv.
    public static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if environment[name] == nil { environment[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return environment
    }

    private static func passwordDatabaseHome() -> FilePath? {
        var buffer = [CChar](repeating: 0, count: 16384)
        // pw_dir points into the buffer, so it is read while the buffer is pinned.
        let home: FilePath? = buffer.withUnsafeMutableBufferPointer { storage in
            var record = passwd()
            var result: UnsafeMutablePointer<passwd>?
            guard getpwuid_r(getuid(), &record, storage.baseAddress!, storage.count, &result) == 0, result != nil,
                let directory = record.pw_dir
            else { return nil }
            return FilePath(platformString: directory)
        }
        guard let home, home.isAbsolute else { return nil }
        return home
    }
}
