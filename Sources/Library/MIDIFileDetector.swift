import Files
import SMF
import SystemPackage

/// Tells MIDI files from other files: by extension, or by their first bytes whatever their name.
public enum MIDIFileDetector {
    public static let extensions: Set<String> = ["mid", "midi", "smf", "kar", "rmi", "midi2", "mus", "xmi", "hmp", "rcp", "r36", "g36", "g18"]

    public static func isMIDIFile(at path: FilePath) -> Bool {
        hasMIDIExtension(path) || hasMIDIContent(at: path)
    }

    /// Whether the name ends in one of `extensions`, in any case.
    public static func hasMIDIExtension(_ path: FilePath) -> Bool {
        guard let fileExtension = path.extension else { return false }
        return extensions.contains(fileExtension.lowercased())
    }

    /// Whether a regular file, or an archive's member, is at `path` and starts as a MIDI file does
    /// (``MIDIFileSignature``).
    public static func hasMIDIContent(at path: FilePath) -> Bool {
        do {
            return hasMIDIContent(try ReadableFile(path))
        } catch {
            guard case .system(.notDirectory) = error, let member = ArchivedPath(path),
                let bytes = try? member.read(memberLimit: SMFReadingPolicy().maximumFileSize)
            else { return false }
            return MIDIFileSignature.matches(bytes.prefix(MIDIFileSignature.length))
        }
    }

    /// Whether `file` starts as a MIDI file does.
    static func hasMIDIContent(_ file: ReadableFile) -> Bool {
        guard let head = try? file.read(upTo: MIDIFileSignature.length, at: 0) else { return false }
        return !head.isEmpty && MIDIFileSignature.matches(head[...])
    }
}
