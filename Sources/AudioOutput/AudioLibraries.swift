import LibraryLoader

/// libsndfile, TagLib and libpulse, opened at their first use (``LibraryLoader``): a command that
/// writes and plays no audio maps none of them. Each says why it could not be opened, naming the
/// Debian package.
enum AudioLibraries {
    /// Nil once libsndfile is loaded; otherwise why not.
    static func loadSoundFile() -> AudioFileError.Cause? {
        smfplay_load_libsndfile().map { .library("\(String(cString: $0)) (Debian's libsndfile1 reads and writes audio files)") }
    }

    /// Nil once TagLib (its C API and the C++ one CTagLibBackport calls) is loaded; otherwise why not.
    static func loadTagLib() -> String? {
        (smfplay_load_libtag_c() ?? smfplay_load_libtag()).map { "\(String(cString: $0)) (Debian's libtag1v5 and libtagc0 write tags)" }
    }

    /// Nil once libpulse is loaded; otherwise why not.
    static func loadPulseAudio() -> String? {
        smfplay_load_libpulse().map { "\(String(cString: $0)) (Debian's libpulse0 plays through PulseAudio and PipeWire)" }
    }
}
