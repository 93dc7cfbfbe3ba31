import CTagLib
import CTagLibBackport
import SystemPackage

/// A finished audio file opened with TagLib, to add the tags libsndfile cannot write (see
/// ``TagLibTags``). TagLib's pointers stay in here.
final class TagLibFile {
    private let file: UnsafeMutablePointer<TagLib_File>

    /// Opens the file at `path` as `format`, whatever its name says: the file is a temporary one
    /// whose name has no extension. TagLib reads its tags now.
    init(path: FilePath, format: AudioFileFormat) throws(AudioFileError.TaggingFailure) {
        if let reason = AudioLibraries.loadTagLib() { throw .libraryMissing(reason: reason) }
        let opened = path.withPlatformString { name -> UnsafeMutablePointer<TagLib_File>? in
            switch format {
            case .mp3: taglib_file_new_type(name, TagLib_File_MPEG)
            case .flac: taglib_file_new_type(name, TagLib_File_FLAC)
            case .ogg: taglib_file_new_type(name, TagLib_File_OggVorbis)
            case .aiff: smfplay_taglib_file_new_aiff(name)
            case .opus: smfplay_taglib_file_new_opus(name)
            // libsndfile writes all of a WAV file's tags (TagLib would rewrite its INFO texts in Latin-1).
            case .wav, .raw: nil
            }
        }
        guard let opened else { throw .notReadable(format) }
        guard taglib_file_is_valid(opened) != 0 else {
            taglib_file_free(opened)
            throw .notReadable(format)
        }
        file = opened
    }

    deinit {
        taglib_file_free(file)
    }

    /// Sets the property `name` (TagLib's: `TITLE`, `REPLAYGAIN_TRACK_GAIN`…) to `value` alone.
    func set(_ name: String, to value: String) {
        smfplay_taglib_property_set(file, name, value)
    }

    /// Writes the tags into the file, in place.
    func save() throws(AudioFileError.TaggingFailure) {
        guard taglib_file_save(file) != 0 else { throw .notSaved }
    }
}
