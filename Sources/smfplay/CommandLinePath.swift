import Files
import SystemPackage

/// Paths as the shell passed them. Swift reads the command line as text and replaces each byte
/// that is not UTF-8 with U+FFFD, which leads nowhere; a path with such a byte (a Shift-JIS name,
/// say) is found again among the raw arguments, so that it opens.
enum CommandLinePath {
    static func filePath(_ argument: String) -> FilePath {
        guard argument.unicodeScalars.contains("\u{FFFD}") else { return FilePath(argument) }
        for index in 0..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let rawText = String(cString: raw)
            if rawText == argument { return FilePath(platformString: raw) }
            // --option=PATH
            if let equals = rawText.firstIndex(of: "="), rawText[rawText.index(after: equals)...] == argument {
                let offset = rawText.utf8.distance(from: rawText.startIndex, to: equals) + 1
                return FilePath(platformString: raw + offset)
            }
        }
        return FilePath(argument)
    }

    /// The song `argument` names, for a command that takes one (`lyrics`, `thumbnail`); a folder
    /// or an archive is refused saying what it is, rather than as a file that is not MIDI.
    static func song(_ argument: String) throws(CommandFailure) -> FilePath {
        let path = filePath(argument)
        guard path.isFolderOrArchive else { return path }
        let place = path.isFolder ? "a folder" : ArchivedPath(path)?.isArchive == true ? "an archive" : "a folder in an archive"
        throw CommandFailure("\(path.text): \(place), not a song: name a song in it, as \(path.appending("song.mid").text)")
    }
}
