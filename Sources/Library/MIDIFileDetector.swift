#if canImport(Glibc)
import Glibc
#endif
import SMF
import SystemPackage

/// Tells MIDI files from other files: by extension, or by their first bytes whatever their name.
public enum MIDIFileDetector {
    public static let extensions: Set<String> = ["mid", "midi", "smf", "kar", "rmi"]

    public static func isMIDIFile(at path: FilePath) -> Bool {
        hasMIDIExtension(path) || hasMIDIContent(at: path)
    }

    /// Whether the name ends in one of `extensions`, in any case.
    public static func hasMIDIExtension(_ path: FilePath) -> Bool {
        guard let fileExtension = path.extension else { return false }
        return extensions.contains(fileExtension.lowercased())
    }

    /// Whether the file starts as a MIDI file does (``MIDIFileSignature``).
    public static func hasMIDIContent(at path: FilePath) -> Bool {
        let fd = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: MIDIFileSignature.length)
        let count = head.withUnsafeMutableBytes { read(fd, $0.baseAddress!, MIDIFileSignature.length) }
        return count > 0 && MIDIFileSignature.matches(head[..<count])
    }
}
