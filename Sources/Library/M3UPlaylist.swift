#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// An M3U or M3U8 playlist: one path or `file://` URL a line, `#` lines are
/// comments; relative paths start at the playlist's folder.
public enum M3UPlaylist {
    public static func isPlaylist(_ path: String) -> Bool {
        let lowercased = path.lowercased()
        return lowercased.hasSuffix(".m3u") || lowercased.hasSuffix(".m3u8")
    }

    /// The entries, in order, as paths.
    public static func entries(ofPlaylistAt path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        // M3U8 is UTF-8; plain M3U from old players is often Latin-1.
        let text = String(data: data, encoding: .utf8) ?? String(decoding: data, as: Unicode.ASCII.self)
        let folder = (path as NSString).deletingLastPathComponent
        return text.split(whereSeparator: \.isNewline).compactMap { rawLine in
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
            if line.hasPrefix("file://") { return URL(string: line)?.path }
            if line.hasPrefix("/") || folder.isEmpty { return line }
            return folder + "/" + line
        }
    }
}
