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

    public var home: String
    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public var configHome: String
    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    public var dataHome: String
    /// `$XDG_STATE_HOME`, or `~/.local/state`.
    public var stateHome: String
    /// `$XDG_CACHE_HOME`, or `~/.cache`.
    public var cacheHome: String
    /// The user's music folder: `$XDG_MUSIC_DIR`, or `XDG_MUSIC_DIR` in
    /// `$XDG_CONFIG_HOME/user-dirs.dirs`, or `~/Music`. One set to the home folder
    /// itself counts as not set, since that is how xdg-user-dirs turns a folder off.
    public var music: String

    /// smfplay's own folders under the base ones, where the resume state and the
    /// caches go: `$XDG_STATE_HOME/smfplay` and `$XDG_CACHE_HOME/smfplay`.
    public var stateFolder: String { PathText.join(stateHome, Self.applicationName) }
    public var cacheFolder: String { PathText.join(cacheHome, Self.applicationName) }
    public var dataFolder: String { PathText.join(dataHome, Self.applicationName) }

    /// `home` is `$HOME` when it is absolute, otherwise the user's home folder in the
    /// password database (services and `sudo -H`-less scripts can run without HOME),
    /// otherwise `/`.
    public init(environment: [String: String]) {
        func absolute(_ name: String) -> String? {
            guard let value = environment[name], value.hasPrefix("/") else { return nil }
            return value
        }
        let home = absolute("HOME") ?? Self.passwordDatabaseHome() ?? "/"
        self.home = home
        configHome = absolute("XDG_CONFIG_HOME") ?? PathText.join(home, ".config")
        dataHome = absolute("XDG_DATA_HOME") ?? PathText.join(home, ".local/share")
        stateHome = absolute("XDG_STATE_HOME") ?? PathText.join(home, ".local/state")
        cacheHome = absolute("XDG_CACHE_HOME") ?? PathText.join(home, ".cache")
        let homeFolder = PathText.absolute(home, workingDirectory: "/", home: nil)
        let musicFolders = [absolute("XDG_MUSIC_DIR"), UserDirectories(home: home, configHome: configHome).folder(named: "MUSIC")]
        music = musicFolders.compactMap { $0 }.first { PathText.absolute($0, workingDirectory: "/", home: nil) != homeFolder }
            ?? PathText.join(home, "Music")
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

    private static func passwordDatabaseHome() -> String? {
        var buffer = [CChar](repeating: 0, count: 16384)
        // pw_dir points into the buffer, so it is read while the buffer is pinned.
        let home: String? = buffer.withUnsafeMutableBufferPointer { storage in
            var record = passwd()
            var result: UnsafeMutablePointer<passwd>?
            guard getpwuid_r(getuid(), &record, storage.baseAddress!, storage.count, &result) == 0, result != nil,
                  let directory = record.pw_dir
            else { return nil }
            return String(cString: directory)
        }
        guard let home, home.hasPrefix("/") else { return nil }
        return home
    }
}
