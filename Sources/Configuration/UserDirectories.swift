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

    private let home: String
    private let lines: [Substring]

    init(home: String, configHome: String) {
        self.home = home
        let bytes = (try? FileSystem.read(path: PathText.join(configHome, "user-dirs.dirs"), limit: Self.sizeLimit)) ?? []
        lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
    }

    /// The folder for `name` ("MUSIC" for `XDG_MUSIC_DIR`), if the file sets it.
    func folder(named name: String) -> String? {
        lines.reversed().lazy.compactMap { folder(in: $0, variable: "XDG_\(name)_DIR") }.first
    }

    private func folder(in line: Substring, variable: String) -> String? {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        guard rest.hasPrefix(variable) else { return nil }
        rest = rest.dropFirst(variable.count).drop { $0 == " " || $0 == "\t" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard rest.first == "\"" else { return nil }
        rest = rest.dropFirst()
        var folder: String
        if rest.hasPrefix("$HOME/") {
            folder = home.hasSuffix("/") ? home : home + "/"
            rest = rest.dropFirst("$HOME/".count)
        } else if rest.first == "/" {
            folder = ""
        } else {
            return nil
        }
        var escaped = false
        for character in rest {
            if escaped {
                folder.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                break
            } else {
                folder.append(character)
            }
        }
        return folder
    }
}
