import Files
import Foundation
import SMF
import SystemPackage

/// A file's texts as the full-text index holds them, folded (see ``SearchText``): its name
/// (without the extension), its folders below the library folder, its title, an RMID file's
/// artist, album and genre, and its copyright (together in the `title` column), and its lyrics and
/// text events; and for words of one or two letters, which the trigram index cannot look up, the
/// letter pairs of its name (and of its folders, title, artist, album and genre).
struct SearchRow {
    var name: String
    var folders: String
    var title: String
    var words: String
    var namePairs: String
    var otherPairs: String

    init(path: FilePath, folder: SearchFolder, facts: FileFacts?) {
        name = SearchText.fold(path.stemText)
        folders = folder.folded
        title = SearchText.fold(
            [facts?.title, facts?.artist, facts?.album, facts?.genre, facts?.copyright].compactMap { $0 }.joined(separator: "\n"))
        words = SearchText.fold(facts?.words ?? "")
        namePairs = SearchText.letterPairs(of: name)
        // As the pairs of `folders + " " + title`, the folder's cut once for all its files.
        let titlePairs = SearchText.letterPairs(of: title)
        otherPairs = folder.pairs.isEmpty || titlePairs.isEmpty ? folder.pairs + titlePairs : folder.pairs + " " + titlePairs
    }
}

extension IndexedFile {
    /// A file as read (its texts in `textEncoding`): its facts, or why it could not be read.
    init(path: FilePath, stamp: IndexStamp, facts: Result<FileFacts, SMFFileError>, textEncoding: TextDecoding.Encoding?) {
        self.init(path: Data(path.bytes), size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds, inode: stamp.inode, hasLyrics: false)
        switch facts {
        case .success(let facts):
            duration = facts.duration
            format = facts.format
            trackCount = facts.trackCount
            channels = facts.channels.map(String.init).joined(separator: ",")
            noteCount = facts.noteCount
            programs = facts.programs.map(String.init).joined(separator: ",")
            mode = facts.mode.rawValue
            title = facts.title
            artist = facts.artist
            album = facts.album
            genre = facts.genre
            copyright = facts.copyright
            hasLyrics = facts.hasLyrics
            words = facts.words
            // ASCII reads the same in every encoding: a change of encoding leaves the file alone,
            // unless its path is not UTF-8 (a Latin-1 name): names are read in the encoding too.
            let isASCII = [title, artist, album, genre, copyright, words].allSatisfy { $0?.utf8.allSatisfy { $0 < 0x80 } ?? true }
            self.textEncoding = isASCII && path.isValidUTF8 ? nil : TextDecoding.Encoding.name(of: textEncoding)
        case .failure(let error):
            problem = "\(error)"
            // Not read at all (no permission, an I/O error): read again by the next update, which
            // finds the file's stamp unchanged when only its permissions were mended.
            if case .unreadable = error { isComplete = false }
        }
    }
}
