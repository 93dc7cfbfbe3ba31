import Files
import Foundation
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// An M3U or M3U8 playlist: one path or `file://` URL a line, `#` lines are comments; relative
/// paths start at the playlist's folder.
///
/// A line is a path's bytes, as the program that wrote the playlist had them: a Shift-JIS name
/// in a playlist beside it opens. An entry that names nothing on disk and is not UTF-8 (an `.m3u`
/// from an old Windows player, in Shift-JIS or Windows-1252, for files since renamed in UTF-8) is
/// tried in UTF-8 too.
public enum M3UPlaylist {
    /// A playlist is read whole; none of a million lines comes near this.
    public static let sizeLimit = 256 << 20

    public static func isPlaylist(_ path: FilePath) -> Bool {
        guard let fileExtension = path.extension?.lowercased() else { return false }
        return fileExtension == "m3u" || fileExtension == "m3u8"
    }

    /// A line of a playlist.
    public enum Entry: Hashable, Sendable {
        case file(FilePath)
        /// The address of something elsewhere (`http://…`, or a `file://` URL of another
        /// machine), which smfplay does not fetch.
        case address(String)
    }

    /// The entries, in order.
    public static func entries(ofPlaylistAt path: FilePath) throws(FileReadError) -> [Entry] {
        entries(inPlaylist: try SmallFile.read(path, limit: sizeLimit), folder: path.containingFolder)
    }

    /// The entries of a playlist's bytes, relative paths under `folder`.
    public static func entries(inPlaylist bytes: [UInt8], folder: FilePath) -> [Entry] {
        bytes.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }).compactMap { rawLine in
            var line = rawLine.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            while let last = line.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { line = line.dropLast() }
            // A byte-order mark before the first line.
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            guard let first = line.first, first != UInt8(ascii: "#") else { return nil }
            let filePrefix = Array("file://".utf8)
            if line.starts(with: filePrefix) {
                return percentDecoded(line.dropFirst(filePrefix.count)).map { .file(FilePath(bytes: $0)) }
                    ?? .address(String(decoding: line, as: UTF8.self))
            }
            if isAddress(line) { return .address(String(decoding: line, as: UTF8.self)) }
            let entry = FilePath(bytes: line)
            return .file(locate(entry.isAbsolute ? entry : folder.pushing(entry)))
        }
    }

    /// Whether a line starts with a URL's scheme and `://` (`http://`, `https://`, `ftp://`).
    private static func isAddress(_ line: ArraySlice<UInt8>) -> Bool {
        guard let separator = line.firstRange(of: Array("://".utf8)), let first = line.first, (0x61...0x7A).contains(first | 0x20) else {
            return false
        }
        return line[..<separator.lowerBound].allSatisfy { byte in
            (0x61...0x7A).contains(byte | 0x20) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
    }

    /// `path` if something is there or its name is UTF-8; else the same name read as Shift-JIS or
    /// Windows-1252 and written in UTF-8, if that names a file.
    private static func locate(_ path: FilePath) -> FilePath {
        var info = stat()
        guard !path.isValidUTF8, path.withPlatformString({ stat($0, &info) }) != 0 else { return path }
        let data = Data(path.bytes)
        for encoding in [String.Encoding.shiftJIS, .windowsCP1252] {
            if let text = String(data: data, encoding: encoding) {
                let candidate = FilePath(text)
                if candidate.withPlatformString({ stat($0, &info) }) == 0 { return candidate }
            }
        }
        return path
    }

    /// The bytes of a URL's path: `%XX` turned into the byte XX; nil for a URL of another host.
    private static func percentDecoded(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        // file:///path, or file://localhost/path.
        var rest = text
        if rest.starts(with: Array("localhost".utf8)) { rest = rest.dropFirst(9) }
        guard rest.first == UInt8(ascii: "/") else { return nil }
        var bytes: [UInt8] = []
        var index = rest.startIndex
        while index < rest.endIndex {
            if rest[index] == UInt8(ascii: "%"), index + 2 < rest.endIndex,
                let value = UInt8(String(decoding: rest[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(rest[index])
                index += 1
            }
        }
        return bytes
    }
}
