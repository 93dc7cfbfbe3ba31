import AudioOutput
import SMF

extension AudioFileTags {
    /// The tags of a song rendered to a file: its title as smfplay shows it (an RMID file's INFO
    /// title, else the song's own, see ``SMF/MIDIFile/titleText(decoding:)``), else `name` (the
    /// MIDI file's name without its extension); an RMID file's INFO artist, album, genre, date,
    /// comment and copyright; and `software`. The texts are read in `textEncoding`, or nil, in
    /// the one the file's own text shows, as `smfplay info` reads them.
    public init(song file: MIDIFile, name: String?, textEncoding: TextDecoding.Encoding?, software: String?) {
        let decoding = textEncoding.map(TextDecoding.init(forcing:)) ?? TextDecoding(detectingIn: file)
        let info = file.rmidInfo.map { RMIDInfoSummary($0, decoding: $0.textDecoding(songDecoding: decoding)) }
        self.init(
            title: file.titleText(decoding: decoding) ?? name.flatMap { $0.isEmpty ? nil : $0 }, artist: info?.artist, album: info?.album,
            genre: info?.genre, date: info?.date, comment: info?.comment, copyright: info?.copyright, software: software)
    }
}
