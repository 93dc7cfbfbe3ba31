import CSndFile

/// The tags as libsndfile's strings (`sf_set_string`, `sf_get_string`).
extension AudioFileTags {
    /// Each text, with libsndfile's string type and the name messages give it.
    private static var fields: [(keyPath: WritableKeyPath<AudioFileTags, String?>, type: Int32, name: String)] {
        [
            (\.title, Int32(SF_STR_TITLE), "title"), (\.artist, Int32(SF_STR_ARTIST), "artist"), (\.album, Int32(SF_STR_ALBUM), "album"),
            (\.genre, Int32(SF_STR_GENRE), "genre"), (\.date, Int32(SF_STR_DATE), "date"), (\.comment, Int32(SF_STR_COMMENT), "comment"),
            (\.copyright, Int32(SF_STR_COPYRIGHT), "copyright"), (\.software, Int32(SF_STR_SOFTWARE), "software"),
        ]
    }

    /// The texts of a file open for reading; those it does not have are nil. An empty text counts
    /// as none: libsndfile reads an MP3 file's empty ID3v1 fields as "".
    init(reading sndfile: OpaquePointer) {
        self.init()
        for field in Self.fields {
            guard let text = sf_get_string(sndfile, field.type), text.pointee != 0 else { continue }
            self[keyPath: field.keyPath] = String(cString: text)
        }
    }

    /// Stores the texts in a file open for writing. Must come before its first sample: FLAC and
    /// Ogg write them into the stream's headers, which the first sample sets out, and refuse them
    /// afterwards ("File type does not support string data"). Returns what libsndfile refused.
    func write(to sndfile: OpaquePointer) -> AudioFileError.Cause? {
        for field in Self.fields {
            guard let text = self[keyPath: field.keyPath].map(Self.storable), !text.isEmpty else { continue }
            let code = sf_set_string(sndfile, field.type, text)
            if code != 0 {
                let reason = AudioFileError.Cause.library(tidying: String(cString: sf_error_number(code)))
                return .library("cannot store the \(field.name) tag: \(reason)")
            }
        }
        return nil
    }

    /// `text` as it can be stored: up to its first NUL (a C string ends there), within
    /// ``longestText`` bytes of UTF-8, cut between characters.
    static func storable(_ text: String) -> String {
        var bytes = 0
        var end = text.startIndex
        for index in text.indices {
            let character = text[index]
            let size = character.utf8.count
            guard character != "\0", bytes + size <= longestText else { break }
            bytes += size
            end = text.index(after: index)
        }
        return String(text[..<end])
    }
}
