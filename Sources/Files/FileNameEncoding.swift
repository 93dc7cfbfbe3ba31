import Foundation
import Synchronization

/// The encoding a file's name is read in when it is not UTF-8 (``FilePath/text``): by default
/// Shift-JIS where the bytes are that (Japanese archives, and what was unpacked from them), else
/// byte by byte; or the one the listener names for the files' texts (`--text-encoding`, the
/// configuration's `text_encoding`), since a collection's names and texts come from one place.
public enum FileNameEncoding {
    /// The chosen encoding's raw value; 0 for none chosen.
    private static let chosen = Atomic<UInt>(0)

    /// Names that are not UTF-8 are read as `encoding` from now on (`.utf8`: none is decoded,
    /// each byte shown as `\xNN`); nil: as by default. Chosen before any name is shown.
    public static func choose(_ encoding: String.Encoding?) {
        chosen.store(encoding?.rawValue ?? 0, ordering: .relaxed)
    }

    static var current: String.Encoding? {
        let raw = chosen.load(ordering: .relaxed)
        return raw == 0 ? nil : String.Encoding(rawValue: raw)
    }
}
