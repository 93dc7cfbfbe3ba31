import Files
import SystemPackage

/// `$XDG_CONFIG_HOME/user-dirs.dirs`, which xdg-user-dirs-update writes at login
/// with the user's (often translated) Desktop, Music… folders, one a line:
///
/// ```sh
/// XDG_MUSIC_DIR="$HOME/Musik"
/// XDG_MUSIC_DIR="/srv/music"
/// ```
///
/// Only those two forms are valid, as xdg-user-dir-lookup reads them: a path under
/// `$HOME/` or an absolute one, in double quotes, with `\` escaping the next
/// character. The last line for a folder wins; a missing or unreadable file sets none.
struct UserDirectories {
    /// Anything larger was not written by xdg-user-dirs-update.
    static let sizeLimit = 64 << 10

    private let home: FilePath
    private let lines: [ArraySlice<UInt8>]

    init(home: FilePath, configHome: FilePath) {
        self.home = home
        let bytes = (try? SmallFile.read(configHome.appending("user-dirs.dirs"), limit: Self.sizeLimit)) ?? []
        lines = bytes.split { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    }

    /// The folder for `name` ("MUSIC" for `XDG_MUSIC_DIR`), if the file sets it.
    func folder(named name: String) -> FilePath? {
        lines.reversed().lazy.compactMap { folder(in: $0, variable: Array("XDG_\(name)_DIR".utf8)) }.first
    }

    /// On bytes: the file holds the folder's name as the file system has it, whatever its encoding.
    private func folder(in line: ArraySlice<UInt8>, variable: [UInt8]) -> FilePath? {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var rest = line.drop(while: blank)
        guard rest.starts(with: variable) else { return nil }
        rest = rest.dropFirst(variable.count).drop(while: blank)
        guard rest.first == UInt8(ascii: "=") else { return nil }
        rest = rest.dropFirst().drop(while: blank)
        guard rest.first == UInt8(ascii: "\"") else { return nil }
        rest = rest.dropFirst()
        let homePrefix = Array("$HOME/".utf8)
        var folder: [UInt8]
        if rest.starts(with: homePrefix) {
            folder = home.bytes + [UInt8(ascii: "/")]
            rest = rest.dropFirst(homePrefix.count)
        } else if rest.first == UInt8(ascii: "/") {
            folder = []
        } else {
            return nil
        }
        var escaped = false
        for byte in rest {
            if escaped {
                folder.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                break
            } else {
                folder.append(byte)
            }
        }
        return FilePath(bytes: folder)
    }
}
