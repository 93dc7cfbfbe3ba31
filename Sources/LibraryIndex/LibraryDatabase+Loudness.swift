import GRDB
import Loudness

/// Songs' loudness, each as measured with one sound (its SoundFonts and settings): `content` is
/// the MD5 of the song file's bytes, `sound` the MD5 of the sound's description (Playback's
/// `SongSoundKey`). Kept at a synthesizer gain of 1.
extension LibraryDatabase {
    public func loudness(content: String, sound: String) throws(LibraryIndexError) -> Loudness? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT integrated_lufs, true_peak_dbtp, seconds FROM loudness WHERE content = ? AND sound = ?", arguments: [content, sound]
            ).map { Loudness(integratedLUFS: $0["integrated_lufs"], truePeakDBTP: $0["true_peak_dbtp"], seconds: $0["seconds"]) }
        }
    }

    public func remember(_ loudness: Loudness, content: String, sound: String) throws(LibraryIndexError) {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO loudness (content, sound, integrated_lufs, true_peak_dbtp, seconds) VALUES (?, ?, ?, ?, ?)",
                arguments: [content, sound, loudness.integratedLUFS, loudness.truePeakDBTP, loudness.seconds])
        }
    }
}
