import Foundation

/// A Standard MIDI File: its header and its tracks, as written; or a song read from another kind
/// of file (``Kind``) into the same form.
public struct MIDIFile: Hashable, Sendable {
    /// What kind of file the song was read from.
    public enum Kind: String, Hashable, Sendable {
        case standardMIDIFile = "Standard MIDI File"
        /// A MIDI 2.0 Clip File (`SMF2CLIP`), translated to MIDI 1.0 (see `MIDIClipReader`).
        case midi2Clip = "MIDI 2.0 clip"
        /// id Software's MUS score (Doom, Heretic, Hexen), translated (see `MUSReader`).
        case mus = "MUS (Doom)"
        /// The Miles Sound System's extended MIDI, its first song (see `XMIReader`).
        case xmi = "XMI (Miles)"
        /// Human Machine Interfaces' MIDI (Descent, Duke Nukem 3D), translated (see `HMPReader`).
        case hmp = "HMP (HMI)"
        /// Human Machine Interfaces' other format, HMI songs, translated (see `HMIReader`).
        case hmi = "HMI song"
        /// Come On Music's Recomposer (PC-98), RCP v2: `.rcp`, `.r36` (see `RecomposerReader`).
        case recomposerRCP = "Recomposer (RCP)"
        /// Recomposer's RCP v3: `.g36`, `.g18`.
        case recomposerG36 = "Recomposer (G36)"
    }

    /// The header's format.
    public var format: MIDIFileFormat
    /// The header's division: what a tick means.
    public var timebase: Timebase
    /// The `MTrk` chunks in file order.
    public var tracks: [Track]
    /// An RMID file's `LIST INFO`: its title, artist, album… (nil for a plain MIDI file, or an
    /// RMID file whose INFO says nothing).
    public var rmidInfo: RMIDInfo?
    /// The sound bank an RMID file carries for its song; it stays in the file.
    public var embeddedSoundBank: EmbeddedSoundBank?
    public var kind: Kind

    public init(
        format: MIDIFileFormat, timebase: Timebase, tracks: [Track] = [], rmidInfo: RMIDInfo? = nil, embeddedSoundBank: EmbeddedSoundBank? = nil,
        kind: Kind = .standardMIDIFile
    ) {
        self.format = format
        self.timebase = timebase
        self.tracks = tracks
        self.rmidInfo = rmidInfo
        self.embeddedSoundBank = embeddedSoundBank
        self.kind = kind
    }

    /// The song's title as text, without the blanks around it: an RMID file's INFO title (read
    /// in the INFO's encoding, see ``RMIDInfo/textDecoding(songDecoding:)``), else the first
    /// track's name read with `decoding` (a format 2 file's tracks are songs of their own, so
    /// none is the file's title); nil when the song has none, or only blanks.
    public func titleText(decoding: TextDecoding) -> String? {
        if let info = rmidInfo, let title = info.text(.title, decoding: info.textDecoding(songDecoding: decoding)) { return title }
        guard format != .multipleTracksAsynchronous, let name = tracks.first?.name else { return nil }
        var text = decoding.string(from: name)
        // Foundation's trimming (of scalars, of which ASCII's blanks are tab to carriage return
        // and space) only where an end could be blank: most titles start and end with a letter.
        if !Self.isOutsideTrimmed(text.unicodeScalars.first) || !Self.isOutsideTrimmed(text.unicodeScalars.last) {
            text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return text.isEmpty ? nil : text
    }

    /// Whether `scalar` is ASCII and not blank: never trimmed as white space or a line break.
    private static func isOutsideTrimmed(_ scalar: Unicode.Scalar?) -> Bool {
        guard let value = scalar?.value else { return false }
        return value < 0x80 && value != 0x20 && !(0x09...0x0D).contains(value)
    }
}
