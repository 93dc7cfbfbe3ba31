/// How forgiving the reader is.
///
/// By default every file a user is likely to own is read: the RIFF `RMID`
/// wrapper, unknown chunks, a missing End of Track, a track cut off by the end
/// of the file, a long header, extra tracks in format 0, data bytes above 127,
/// system common and real-time messages recorded from a live stream (skipped),
/// running status used again after a system exclusive event, meta events of
/// the wrong length and trailing bytes all give a warning, not an error. Damage
/// inside a track (a data byte with no running status, an event that runs past
/// its complete chunk, a variable-length number over 4 bytes) is an error: the
/// rest of the track cannot be trusted.
public struct SMFReadingPolicy: Hashable, Sendable {
    /// Reject a file that gives any warning (for checking files before publishing them).
    public var rejectsWarnings: Bool
    /// Warnings kept per file; later ones are only counted, so a damaged file cannot fill memory.
    public var maximumWarnings: Int
    /// The largest file read from disk, in bytes; a larger one is refused before it is loaded.
    public var maximumFileSize: Int

    public init(rejectsWarnings: Bool = false, maximumWarnings: Int = 100, maximumFileSize: Int = 1 << 30) {
        self.rejectsWarnings = rejectsWarnings
        self.maximumWarnings = maximumWarnings
        self.maximumFileSize = maximumFileSize
    }

    /// Read what can be read; warn about the rest.
    public static let lenient = SMFReadingPolicy()
    /// Any warning is an error.
    public static let strict = SMFReadingPolicy(rejectsWarnings: true)
}
